/// A tensor type or length that a quantization routine cannot handle.
public struct QuantError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let message: String

    /// The message.
    public var description: String { message }
}

/// Reference (plain scalar) dequantization of the ggml block formats this module reads.
///
/// These are the numerics the fast kernels must agree with; they are not on the hot path.
public enum Quant {
    /// Dequantizes `count` elements of `type` from `source` into `destination`.
    ///
    /// `count` must be a multiple of the type's block size, and `source` must hold the whole row.
    public static func dequantize(_ type: GGMLType, from source: UnsafeRawPointer, count: Int,
                                  into destination: UnsafeMutablePointer<Float>) throws {
        guard let block = type.blockSize, let blockBytes = type.bytesPerBlock else {
            throw QuantError(message: "cannot dequantize tensor type \(type)")
        }
        guard count % block == 0 else {
            throw QuantError(message: "\(count) elements is not a multiple of the \(type) block size \(block)")
        }
        for index in 0 ..< count / block {
            let bytes = source + index * blockBytes
            let out = destination + index * block
            switch type {
            case .f32: out[0] = bytes.loadUnaligned(as: Float.self)
            case .f16: out[0] = Half.toFloat(bytes.loadUnaligned(as: UInt16.self))
            case .q4_0: dequantizeQ4_0(bytes, out)
            case .q4_1: dequantizeQ4_1(bytes, out)
            case .q8_0: dequantizeQ8_0(bytes, out)
            default: dequantizeQ6_K(bytes, out)
            }
        }
    }

    /// Every element of `tensor` as floats, row after row.
    public static func dequantize(_ tensor: GGUFTensor) throws -> [Float] {
        try [Float](unsafeUninitializedCapacity: tensor.elementCount) { buffer, initialized in
            try dequantize(tensor.type, from: tensor.data, count: tensor.elementCount, into: buffer.baseAddress!)
            initialized = tensor.elementCount
        }
    }

    /// Row `row` of a 2-D `tensor` as floats.
    public static func dequantizeRow(_ tensor: GGUFTensor, _ row: Int) throws -> [Float] {
        guard row >= 0, row < tensor.rowCount else {
            throw QuantError(message: "row \(row) is outside tensor '\(tensor.name)' (\(tensor.rowCount) rows)")
        }
        return try [Float](unsafeUninitializedCapacity: tensor.rowLength) { buffer, initialized in
            try dequantize(tensor.type, from: tensor.row(row), count: tensor.rowLength, into: buffer.baseAddress!)
            initialized = tensor.rowLength
        }
    }

    @inline(__always) static func half(_ bytes: UnsafeRawPointer, _ offset: Int) -> Float {
        Half.toFloat(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// Q4_0: d (f16), then 16 bytes; byte j holds element j (low nibble) and j+16 (high); x = d·(q−8).
    static func dequantizeQ4_0(_ bytes: UnsafeRawPointer, _ out: UnsafeMutablePointer<Float>) {
        let d = half(bytes, 0)
        let quants = bytes.advanced(by: 2).assumingMemoryBound(to: UInt8.self)
        for j in 0 ..< quantBlock / 2 {
            out[j] = d * Float(Int(quants[j] & 0x0F) - 8)
            out[j + quantBlock / 2] = d * Float(Int(quants[j] >> 4) - 8)
        }
    }

    /// Q4_1: d (f16), m (f16), then 16 nibble bytes as in Q4_0; x = d·q + m.
    static func dequantizeQ4_1(_ bytes: UnsafeRawPointer, _ out: UnsafeMutablePointer<Float>) {
        let d = half(bytes, 0), m = half(bytes, 2)
        let quants = bytes.advanced(by: 4).assumingMemoryBound(to: UInt8.self)
        for j in 0 ..< quantBlock / 2 {
            out[j] = d * Float(quants[j] & 0x0F) + m
            out[j + quantBlock / 2] = d * Float(quants[j] >> 4) + m
        }
    }

    /// Q8_0: d (f16), then 32 signed bytes; x = d·q.
    static func dequantizeQ8_0(_ bytes: UnsafeRawPointer, _ out: UnsafeMutablePointer<Float>) {
        let d = half(bytes, 0)
        let quants = bytes.advanced(by: 2).assumingMemoryBound(to: Int8.self)
        for j in 0 ..< quantBlock { out[j] = d * Float(quants[j]) }
    }

    /// Q6_K: ql[128] (low 4 bits), qh[64] (high 2 bits), scales[16] (int8), d (f16); 256 elements in
    /// two halves of 128; x = d·scale·(q−32) with one scale per 16 elements.
    static func dequantizeQ6_K(_ bytes: UnsafeRawPointer, _ out: UnsafeMutablePointer<Float>) {
        let d = half(bytes, 208)
        for halfIndex in 0 ..< 2 {
            let ql = bytes.advanced(by: halfIndex * 64).assumingMemoryBound(to: UInt8.self)
            let qh = bytes.advanced(by: 128 + halfIndex * 32).assumingMemoryBound(to: UInt8.self)
            let scales = bytes.advanced(by: 192 + halfIndex * 8).assumingMemoryBound(to: Int8.self)
            let y = out + halfIndex * 128
            for l in 0 ..< 32 {
                let group = l / 16
                let q1 = Int(ql[l] & 0x0F) | Int((qh[l] >> 0) & 3) << 4
                let q2 = Int(ql[l + 32] & 0x0F) | Int((qh[l] >> 2) & 3) << 4
                let q3 = Int(ql[l] >> 4) | Int((qh[l] >> 4) & 3) << 4
                let q4 = Int(ql[l + 32] >> 4) | Int((qh[l] >> 6) & 3) << 4
                y[l] = d * Float(scales[group]) * Float(q1 - 32)
                y[l + 32] = d * Float(scales[group + 2]) * Float(q2 - 32)
                y[l + 64] = d * Float(scales[group + 4]) * Float(q3 - 32)
                y[l + 96] = d * Float(scales[group + 6]) * Float(q4 - 32)
            }
        }
    }
}
