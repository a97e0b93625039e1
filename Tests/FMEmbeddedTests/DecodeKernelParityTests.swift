import FMCore
import FMEmbedded
import FMKernels
import Foundation
import Testing

/// Batched decoding multiplies several sequences' tokens with the matrix–matrix kernels and promises
/// each sequence the floats of decoding it alone (matrix–vector kernels): these tests hold the two
/// kernels to that, bit for bit, at every kernel level, for every token count a decode batch can have
/// (the four-token groups and the remainder).
@Suite struct DecodeKernelParityTests {
    /// Random bytes of `rows × cols` in a block format: a half scale (and, for Q4_1, a half minimum)
    /// of a plausible size, then random quants.
    private static func matrix(rows: Int, cols: Int, q8_0: Bool, random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        func half(_ value: Float) { withUnsafeBytes(of: Float16(value).bitPattern.littleEndian) { bytes += $0 } }
        for _ in 0..<(rows * cols / 32) {
            half(0.001 + Float(random.next() % 1000) / 50_000)
            if !q8_0 { half(Float(Int(random.next() % 2001) - 1000) / 5000) }
            for _ in 0..<(q8_0 ? 32 : 16) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
        }
        return bytes
    }

    /// Q8_1 activations of `tokens` rows of `cols` floats, with outliers as SmolLM2's have.
    private static func activations(tokens: Int, cols: Int, random: inout SplitMix64) -> (qs: [Int8], d: [Float], s: [Float]) {
        let x = (0..<(tokens * cols)).map { i -> Float in
            let value = Float(Int(random.next() % 20001) - 10000) / 4000
            return i % 97 == 0 ? value * 40 : value
        }
        var qs = [Int8](repeating: 0, count: x.count), d = [Float](repeating: 0, count: x.count / 32), s = d
        fmk_quantize_q8_1(x, Int32(x.count), &qs, &d, &s)
        return (qs, d, s)
    }

    @Test(arguments: [576, 1536])
    func matmulGivesEachTokenItsMatvecBits(cols: Int) {
        var random = SplitMix64(seed: UInt64(cols))
        let rows = 67
        for q8_0 in [false, true] {
            let w = Self.matrix(rows: rows, cols: cols, q8_0: q8_0, random: &random)
            for tokens in 2...9 {
                let x = Self.activations(tokens: tokens, cols: cols, random: &random)
                for level in supportedLevels {
                    #expect(fmk_set_level(level) == 0)
                    var batch = [Float](repeating: .nan, count: tokens * rows)
                    var packedBatch = batch
                    if q8_0 {
                        fmk_matmul_q8_0(w, Int32(cols), 0, Int32(rows), x.qs, x.d, Int32(tokens), &batch, rows)
                    } else {
                        fmk_matmul_q4_1(w, Int32(cols), 0, Int32(rows), x.qs, x.d, x.s, Int32(tokens), &batch, rows)
                        var packed = [UInt8](repeating: 0, count: w.count)
                        let packRows = Int(FMK_Q4_1_PACK_ROWS)
                        fmk_pack_q4_1(w, Int32(rows / packRows * packRows), Int32(cols), &packed)
                        fmk_matmul_q4_1_packed(w, packed, Int32(cols), 0, Int32(rows), x.qs, x.d, x.s, Int32(tokens),
                                               &packedBatch, rows)
                    }
                    for t in 0..<tokens {
                        var single = [Float](repeating: .nan, count: rows)
                        let (q, d, s) = (Array(x.qs[(t * cols)...]), Array(x.d[(t * cols / 32)...]), Array(x.s[(t * cols / 32)...]))
                        if q8_0 {
                            fmk_matvec_q8_0(w, Int32(cols), 0, Int32(rows), q, d, nil, &single)
                        } else {
                            fmk_matvec_q4_1(w, Int32(cols), 0, Int32(rows), q, d, s, &single)
                        }
                        let same = (0..<rows).allSatisfy { batch[t * rows + $0].bitPattern == single[$0].bitPattern }
                        #expect(same, "\(q8_0 ? "Q8_0" : "Q4_1") level \(level), \(tokens) tokens, token \(t)")
                        if !q8_0 {
                            let packedSame = (0..<rows).allSatisfy {
                                packedBatch[t * rows + $0].bitPattern == single[$0].bitPattern
                            }
                            #expect(packedSame, "packed Q4_1 level \(level), \(tokens) tokens, token \(t)")
                        }
                    }
                }
            }
        }
        fmk_set_level(-1)
    }
}
