import Foundation

/// Builds a GGUF v3 file in memory: metadata, then tensor infos, then aligned tensor data.
///
/// Used by tests to write small synthetic models; the bytes follow the same layout `GGUFFile` reads.
public struct GGUFWriter {
    /// Tensor data alignment written to the file (also stored as `general.alignment` when not 32).
    public let alignment: Int
    private var metadata: [(String, GGUFValue)] = []
    private var tensors: [(name: String, shape: [Int], type: GGMLType, data: [UInt8])] = []

    /// A writer with the given data alignment (a power of two).
    public init(alignment: Int = GGUFFile.defaultAlignment) {
        self.alignment = alignment
        if alignment != GGUFFile.defaultAlignment {
            metadata.append(("general.alignment", .uint32(UInt32(alignment))))
        }
    }

    /// Appends the metadata entry `key` = `value`.
    public mutating func add(_ key: String, _ value: GGUFValue) {
        metadata.append((key, value))
    }

    /// Appends a tensor; `data` must already be encoded in `type`'s block layout.
    public mutating func addTensor(name: String, shape: [Int], type: GGMLType, data: [UInt8]) {
        tensors.append((name, shape, type, data))
    }

    /// Appends an F32 tensor from floats.
    public mutating func addTensor(name: String, shape: [Int], floats: [Float]) {
        var data: [UInt8] = []
        data.reserveCapacity(floats.count * 4)
        for value in floats { Self.append(value.bitPattern, to: &data) }
        addTensor(name: name, shape: shape, type: .f32, data: data)
    }

    /// The complete file.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        Self.append(GGUFFile.magic, to: &out)
        Self.append(UInt32(3), to: &out)
        Self.append(UInt64(tensors.count), to: &out)
        Self.append(UInt64(metadata.count), to: &out)
        for (key, value) in metadata {
            Self.appendString(key, to: &out)
            Self.append(value.type.rawValue, to: &out)
            Self.appendValue(value, to: &out)
        }
        var offset = 0
        var offsets: [Int] = []
        for tensor in tensors {
            offsets.append(offset)
            offset = Self.padded(offset + tensor.data.count, alignment)
        }
        for (tensor, tensorOffset) in zip(tensors, offsets) {
            Self.appendString(tensor.name, to: &out)
            Self.append(UInt32(tensor.shape.count), to: &out)
            for dimension in tensor.shape { Self.append(UInt64(dimension), to: &out) }
            Self.append(tensor.type.rawValue, to: &out)
            Self.append(UInt64(tensorOffset), to: &out)
        }
        out.append(contentsOf: [UInt8](repeating: 0, count: Self.padded(out.count, alignment) - out.count))
        for tensor in tensors {
            out.append(contentsOf: tensor.data)
            out.append(contentsOf: [UInt8](repeating: 0, count: Self.padded(out.count, alignment) - out.count))
        }
        return out
    }

    /// Writes the file to `path`.
    public func write(to path: String) throws {
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
    }

    private static func padded(_ value: Int, _ alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }

    /// Appends `value` in little-endian byte order.
    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func appendString(_ string: String, to out: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        append(UInt64(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }

    private static func appendValue(_ value: GGUFValue, to out: inout [UInt8]) {
        switch value {
        case .uint8(let v): append(v, to: &out)
        case .int8(let v): append(v, to: &out)
        case .uint16(let v): append(v, to: &out)
        case .int16(let v): append(v, to: &out)
        case .uint32(let v): append(v, to: &out)
        case .int32(let v): append(v, to: &out)
        case .float32(let v): append(v.bitPattern, to: &out)
        case .bool(let v): out.append(v ? 1 : 0)
        case .string(let v): appendString(v, to: &out)
        case .uint64(let v): append(v, to: &out)
        case .int64(let v): append(v, to: &out)
        case .float64(let v): append(v.bitPattern, to: &out)
        case .array(let elementType, let values):
            append(elementType.rawValue, to: &out)
            append(UInt64(values.count), to: &out)
            for element in values { appendValue(element, to: &out) }
        }
    }
}
