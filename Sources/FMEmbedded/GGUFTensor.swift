import FMKernels

/// A ggml tensor element type, by its number in the GGUF file.
///
/// Only the types in `supported` have known block layouts here; any other number is still representable
/// so that `fmeval model info` can name it, but a file holding one is rejected by `GGUFFile`.
public struct GGMLType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The ggml type number.
    public let rawValue: UInt32

    /// Wraps a ggml type number.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 32-bit float, one element per block.
    public static let f32 = GGMLType(rawValue: UInt32(FMK_TYPE_F32.rawValue))
    /// 16-bit IEEE half float, one element per block.
    public static let f16 = GGMLType(rawValue: UInt32(FMK_TYPE_F16.rawValue))
    /// 32 elements: f16 scale `d`, 16 bytes of 4-bit quants (value = d × (q − 8)).
    public static let q4_0 = GGMLType(rawValue: 2)
    /// 32 elements: f16 scale `d`, f16 minimum `m`, 16 bytes of 4-bit quants (value = d × q + m).
    public static let q4_1 = GGMLType(rawValue: UInt32(FMK_TYPE_Q4_1.rawValue))
    /// 32 elements: f16 scale `d`, 32 signed 8-bit quants (value = d × q).
    public static let q8_0 = GGMLType(rawValue: UInt32(FMK_TYPE_Q8_0.rawValue))
    /// 256-element super-block: 6-bit quants in 16 groups with signed 8-bit scales and an f16 `d`.
    public static let q6_K = GGMLType(rawValue: 14)

    /// The types whose layouts this module knows.
    public static let supported: [GGMLType] = [.f32, .f16, .q4_0, .q4_1, .q8_0, .q6_K]

    /// Elements per block, or nil for an unsupported type.
    public var blockSize: Int? {
        switch self {
        case .f32, .f16: return 1
        case .q4_0, .q4_1, .q8_0: return quantBlock
        case .q6_K: return 256
        default: return nil
        }
    }

    /// Bytes per block, or nil for an unsupported type.
    public var bytesPerBlock: Int? {
        switch self {
        case .f32: return 4
        case .f16: return 2
        case .q4_0: return 18
        case .q4_1: return 20
        case .q8_0: return 34
        case .q6_K: return 210
        default: return nil
        }
    }

    /// The ggml name, e.g. `Q4_1`, or `type#N` for a number this module does not know.
    public var description: String {
        switch self {
        case .f32: return "F32"
        case .f16: return "F16"
        case .q4_0: return "Q4_0"
        case .q4_1: return "Q4_1"
        case .q8_0: return "Q8_0"
        case .q6_K: return "Q6_K"
        default: return "type#\(rawValue)"
        }
    }

    /// Bytes a row of `count` elements occupies, or nil when the type is unsupported or `count`
    /// is not a multiple of the block size.
    public func rowBytes(_ count: Int) -> Int? {
        guard let block = blockSize, let bytes = bytesPerBlock, count % block == 0 else { return nil }
        return count / block * bytes
    }
}

/// One tensor of a GGUF file: its name, shape, element type and a pointer into the mapped file.
///
/// The tensor keeps the file's memory map alive, so `data` stays valid for as long as the tensor (or a
/// copy of it) exists, even after the `GGUFFile` itself is released.
// @unchecked Sendable: `data` points into a read-only memory map that this value keeps alive.
public struct GGUFTensor: @unchecked Sendable {
    /// The tensor name, e.g. `blk.0.attn_q.weight`.
    public let name: String
    /// The dimensions in ggml order: `shape[0]` is the row length (contiguous), then rows, …
    public let shape: [Int]
    /// The element type.
    public let type: GGMLType
    /// Byte offset of the data from the start of the file's data section.
    public let offset: Int
    /// Size of the data in bytes.
    public let byteCount: Int
    /// The first byte of the data inside the memory map.
    public let data: UnsafeRawPointer
    /// What owns the memory `data` points into (the file's map); held only to keep it alive.
    let owner: AnyObject?

    /// Total number of elements (the product of `shape`).
    public var elementCount: Int { shape.reduce(1, *) }
    /// Elements per row (`shape[0]`).
    public var rowLength: Int { shape.first ?? 1 }
    /// Number of rows (the product of every dimension after the first).
    public var rowCount: Int { shape.dropFirst().reduce(1, *) }
    /// Bytes per row.
    public var rowBytes: Int { byteCount / max(rowCount, 1) }

    /// The raw bytes of row `index`; callers keep `index` within `0..<rowCount`.
    public func row(_ index: Int) -> UnsafeRawPointer { data + index * rowBytes }
}
