extension Quant {
    /// The types `quantize(_:as:)` can produce (Q6_K is read-only here).
    public static let quantizableTypes: [GGMLType] = [.f32, .f16, .q4_0, .q4_1, .q8_0]

    /// Encodes `values` in `type`'s block layout, following ggml's reference quantizers
    /// (`quantize_row_*_ref`); used to write synthetic models for tests and to check kernels.
    public static func quantize(_ values: [Float], as type: GGMLType) throws -> [UInt8] {
        guard let block = type.blockSize, quantizableTypes.contains(type) else {
            throw QuantError(message: "cannot quantize to \(type); use one of \(quantizableTypes)")
        }
        guard values.count % block == 0 else {
            throw QuantError(message: "\(values.count) values is not a multiple of the \(type) block size \(block)")
        }
        if let bad = values.firstIndex(where: { !$0.isFinite }) {
            throw QuantError(message: "value \(bad) is \(values[bad]); only finite values can be quantized")
        }
        var out: [UInt8] = []
        out.reserveCapacity(values.count / block * type.bytesPerBlock!)
        var start = 0
        while start < values.count {
            let chunk = values[start ..< start + block]
            switch type {
            case .f32: GGUFWriter.append(chunk.first!.bitPattern, to: &out)
            case .f16: GGUFWriter.append(Half.fromFloat(chunk.first!), to: &out)
            case .q4_0: quantizeQ4_0(chunk, into: &out)
            case .q4_1: quantizeQ4_1(chunk, into: &out)
            default: quantizeQ8_0(chunk, into: &out)
            }
            start += block
        }
        return out
    }

    /// Packs one block of nibbles: byte j = q[j] | q[j + half a block] << 4.
    private static func appendNibbles(_ q: [UInt8], into out: inout [UInt8]) {
        for j in 0 ..< quantBlock / 2 { out.append(q[j] | (q[j + quantBlock / 2] << 4)) }
    }

    /// Q4_0: d = (signed value of largest magnitude) / −8, q = min(15, trunc(x/d + 8.5)).
    private static func quantizeQ4_0(_ x: ArraySlice<Float>, into out: inout [UInt8]) {
        var extreme: Float = 0
        for value in x where abs(value) > abs(extreme) { extreme = value }
        let d = extreme / -8
        let inverse: Float = d != 0 ? 1 / d : 0
        GGUFWriter.append(Half.fromFloat(d), to: &out)
        appendNibbles(x.map { UInt8(min(15, Int8(($0 * inverse + 8.5).rounded(.towardZero)))) }, into: &out)
    }

    /// Q4_1: m = min, d = (max − min) / 15, q = min(15, trunc((x − m)/d + 0.5)).
    private static func quantizeQ4_1(_ x: ArraySlice<Float>, into out: inout [UInt8]) {
        let low = x.min()!, high = x.max()!
        let d = (high - low) / 15
        let inverse: Float = d != 0 ? 1 / d : 0
        GGUFWriter.append(Half.fromFloat(d), to: &out)
        GGUFWriter.append(Half.fromFloat(low), to: &out)
        appendNibbles(x.map { UInt8(min(15, Int8((($0 - low) * inverse + 0.5).rounded(.towardZero)))) }, into: &out)
    }

    /// Q8_0: d = max|x| / 127, q = round(x/d) (half away from zero).
    private static func quantizeQ8_0(_ x: ArraySlice<Float>, into out: inout [UInt8]) {
        let amax = x.map(abs).max()!
        let d = amax / 127
        let inverse: Float = d != 0 ? 1 / d : 0
        GGUFWriter.append(Half.fromFloat(d), to: &out)
        for value in x { out.append(UInt8(bitPattern: Int8((value * inverse).rounded(.toNearestOrAwayFromZero)))) }
    }
}
