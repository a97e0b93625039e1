import Testing
@testable import FMEmbedded

/// A small deterministic generator (64-bit LCG) for test data.
struct SeededBytes {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 8) }
    mutating func float(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + Float(next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound)
    }
}

@Suite struct HalfTests {
    @Test func decodesKnownPatterns() {
        #expect(Half.toFloat(0x3C00) == 1)
        #expect(Half.toFloat(0xC000) == -2)
        #expect(Half.toFloat(0x7BFF) == 65504)
        #expect(Half.toFloat(0x0001) == Float(sign: .plus, exponent: -24, significand: 1))
        #expect(Half.toFloat(0x0400) == Float(sign: .plus, exponent: -14, significand: 1))
        #expect(Half.toFloat(0x8000).sign == .minus && Half.toFloat(0x8000) == 0)
        #expect(Half.toFloat(0x7C00) == .infinity)
        #expect(Half.toFloat(0x7E00).isNaN)
        #expect(Half.toFloat(0x3555) == 0.333_251_95)
    }

    @Test func encodesEveryHalfExactlyAndRoundsToNearestEven() {
        for bits in UInt16.min ... UInt16.max where !Half.toFloat(bits).isNaN {
            #expect(Half.fromFloat(Half.toFloat(bits)) == bits)
        }
        #expect(Half.fromFloat(1 + 1.0 / 2048) == 0x3C00)
        #expect(Half.fromFloat(1 + 3.0 / 2048) == 0x3C02)
        #expect(Half.fromFloat(65520) == 0x7C00)
        #expect(Half.fromFloat(-1e-9) == 0x8000)
        #expect(Half.fromFloat(.nan) & 0x7E00 == 0x7E00)
    }
}

@Suite struct QuantTests {
    /// Little-endian bytes of a half bit pattern.
    func half(_ bits: UInt16) -> [UInt8] { [UInt8(bits & 0xFF), UInt8(bits >> 8)] }

    /// One Q6_K element computed straight from the format description, element by element.
    func q6kElement(_ block: [UInt8], _ i: Int) -> Float {
        let halfIndex = i / 128, r = i % 128, quarter = r / 32, l = r % 32
        let lowByte = block[halfIndex * 64 + l + (quarter % 2) * 32]
        let low = quarter < 2 ? lowByte & 0x0F : lowByte >> 4
        let high = (block[128 + halfIndex * 32 + l] >> (2 * quarter)) & 3
        let scale = Int8(bitPattern: block[192 + halfIndex * 8 + quarter * 2 + l / 16])
        let d = Half.toFloat(UInt16(block[208]) | UInt16(block[209]) << 8)
        return d * Float(scale) * Float(Int(low | high << 4) - 32)
    }

    @Test func dequantizesEveryTypeFromASyntheticFile() throws {
        var random = SeededBytes(state: 42)
        var writer = GGUFWriter()
        var expected: [String: [Float]] = [:]

        let floats = (0 ..< 64).map { _ in random.float(-3 ... 3) }
        writer.addTensor(name: "f32", shape: [32, 2], floats: floats)
        expected["f32"] = floats

        let halves: [UInt16] = (0 ..< 64).map { _ in UInt16(truncatingIfNeeded: random.next()) & 0x7BFF }
        writer.addTensor(name: "f16", shape: [32, 2], type: .f16, data: halves.flatMap(half))
        expected["f16"] = halves.map(Half.toFloat)

        // Q4_0, d = 0.5: byte j = (j low, 15 − j high) → elements j and j+16.
        let q40 = (0 ..< 2).flatMap { _ in half(0x3800) + (0 ..< 16).map { UInt8($0) | UInt8(15 - $0) << 4 } }
        writer.addTensor(name: "q4_0", shape: [32, 2], type: .q4_0, data: q40)
        let q40Low: [Float] = (0 ..< 16).map { j in 0.5 * Float(j - 8) }
        let q40High: [Float] = (0 ..< 16).map { j in 0.5 * Float(7 - j) }
        let q40Row = q40Low + q40High
        expected["q4_0"] = q40Row + q40Row

        // Q4_1, d = 0.25, m = −1.
        let q41 = (0 ..< 2).flatMap { _ in half(0x3400) + half(0xBC00) + (0 ..< 16).map { UInt8($0) | UInt8(15 - $0) << 4 } }
        writer.addTensor(name: "q4_1", shape: [32, 2], type: .q4_1, data: q41)
        let q41Low: [Float] = (0 ..< 16).map { j in 0.25 * Float(j) - 1 }
        let q41High: [Float] = (0 ..< 16).map { j in 0.25 * Float(15 - j) - 1 }
        let q41Row = q41Low + q41High
        expected["q4_1"] = q41Row + q41Row

        // Q8_0, d = 2: q[j] = 8j − 128.
        let q80 = (0 ..< 2).flatMap { _ in half(0x4000) + (0 ..< 32).map { UInt8(bitPattern: Int8($0 * 8 - 128)) } }
        writer.addTensor(name: "q8_0", shape: [32, 2], type: .q8_0, data: q80)
        expected["q8_0"] = Array(repeating: (0 ..< 32).map { 2 * Float($0 * 8 - 128) }, count: 2).flatMap { $0 }

        // Q6_K: random quants and scales, d = 0.125.
        let q6Blocks = (0 ..< 2).map { _ in (0 ..< 208).map { _ in random.byte() } + half(0x3000) }
        writer.addTensor(name: "q6_k", shape: [256, 2], type: .q6_K, data: q6Blocks.flatMap { $0 })
        expected["q6_k"] = q6Blocks.flatMap { block in (0 ..< 256).map { q6kElement(block, $0) } }

        let file = try GGUFFile(path: try writeTemporary(writer.bytes()))
        for (name, values) in expected {
            let tensor = try file.requireTensor(name)
            #expect(try Quant.dequantize(tensor) == values, "\(name)")
            #expect(try Quant.dequantizeRow(tensor, 1) == Array(values[tensor.rowLength...]), "\(name) row 1")
            #expect(throws: QuantError.self) { try Quant.dequantizeRow(tensor, 2) }
        }
        #expect(expected["q6_k"]!.contains { $0 != 0 })
    }

    @Test func quantizeRoundTripsWithinHalfAStep() throws {
        var random = SeededBytes(state: 7)
        let values = (0 ..< 256).map { _ in random.float(-4 ... 4) }
        for type in [GGMLType.q4_0, .q4_1, .q8_0] {
            let bytes = try Quant.quantize(values, as: type)
            #expect(bytes.count == values.count / 32 * type.bytesPerBlock!)
            var decoded = [Float](repeating: .nan, count: values.count)
            try bytes.withUnsafeBytes { try Quant.dequantize(type, from: $0.baseAddress!, count: values.count, into: &decoded) }
            for block in 0 ..< values.count / 32 {
                let slice = values[block * 32 ..< block * 32 + 32]
                let step: Float = switch type {
                case .q4_0: slice.map(abs).max()! / 8
                case .q4_1: (slice.max()! - slice.min()!) / 15
                default: slice.map(abs).max()! / 127
                }
                // Q4_0 clamps q = 16 to 15 at the end opposite its extreme value: a full step there.
                let tolerance = (type == .q4_0 ? step : step * 0.5) + 0.01 * step + 1e-3
                for i in slice.indices {
                    #expect(abs(decoded[i] - values[i]) <= tolerance, "\(type) element \(i)")
                }
            }
        }
    }

    @Test func quantizesExactlyRepresentableValuesExactly() throws {
        let integers = (0 ..< 32).map { Float($0 * 8 - 127) }
        let bytes = try Quant.quantize(integers + [127] + Array(repeating: 0, count: 31), as: .q8_0)
        var decoded = [Float](repeating: 0, count: 64)
        try bytes.withUnsafeBytes { try Quant.dequantize(.q8_0, from: $0.baseAddress!, count: 64, into: &decoded) }
        #expect(Array(decoded[0 ..< 32]) == integers)
        #expect(decoded[32] == 127 && decoded[33 ..< 64].allSatisfy { $0 == 0 })
        let halfBytes = try Quant.quantize([1, -2, 0.5, 65504], as: .f16)
        #expect(halfBytes == [0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B])
    }

    @Test func rejectsBadInput() {
        #expect(throws: QuantError.self) { try Quant.quantize([1, 2, 3], as: .q8_0) }
        #expect(throws: QuantError.self) { try Quant.quantize(Array(repeating: 1, count: 256), as: .q6_K) }
        #expect(throws: QuantError.self) { try Quant.quantize([.nan] + Array(repeating: 0, count: 31), as: .q4_1) }
        var out = [Float](repeating: 0, count: 32)
        #expect(throws: QuantError.self) { try Quant.dequantize(GGMLType(rawValue: 99), from: [UInt8](repeating: 0, count: 64), count: 32, into: &out) }
        #expect(throws: QuantError.self) { try Quant.dequantize(.q4_0, from: [UInt8](repeating: 0, count: 64), count: 31, into: &out) }
    }
}
