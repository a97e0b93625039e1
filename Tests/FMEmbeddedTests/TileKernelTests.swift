import FMKernels
import FMEmbedded
import Foundation
import Testing

/// The prefill tile kernel (`fmk_matmul_q4_1_tiled`) against the row kernel it replaces and against the
/// reference order (`referenceDot`), bit for bit, at every level this CPU runs.
@Suite(.serialized) struct TileKernelTests {
    /// Row ranges that start and end off a tile of rows, token counts around the AVX-512 tile of three
    /// (and a full prefill pass), and widths from one block to past the regroup buffer (2048 elements
    /// with AVX-512's sixteen-row tiles, 4096 with AVX2's eight).
    @Test(arguments: [
        (cols: 32, rows: 16, first: 0, tokens: 1),
        (cols: 576, rows: 37, first: 3, tokens: 7),
        (cols: 576, rows: 64, first: 8, tokens: 128),
        (cols: 1536, rows: 45, first: 5, tokens: 5),
        (cols: 2080, rows: 24, first: 0, tokens: 3),
        (cols: 4128, rows: 11, first: 2, tokens: 4),
    ])
    func tiledQ4_1EqualsRowKernelBitForBit(cols: Int, rows: Int, first: Int, tokens: Int) {
        var random = KernelRandom(seed: UInt64(cols * 31 + tokens))
        let w = randomQ4_1(rows: rows, cols: cols, random: &random)
        // A few large activations, as SmolLM2's outliers, so block scales vary widely.
        let x = QuantizedRows((0..<(tokens * cols)).map { i in random.signed() * (i % 97 == 0 ? 60 : 3) })
        let stride = rows + 3
        for level in supportedLevels {
            let name = levelName(level)
            var expected = [Float](repeating: .nan, count: tokens * stride)
            var tiled = [Float](repeating: .nan, count: tokens * stride)
            atLevel(level) {
                fmk_matmul_q4_1(w, Int32(cols), Int32(first), Int32(rows), x.qs, x.d, x.s, Int32(tokens), &expected, stride)
                fmk_matmul_q4_1_tiled(w, Int32(cols), Int32(first), Int32(rows), x.qs, x.d, x.s, Int32(tokens), &tiled, stride)
            }
            var differing = 0, untouched = true
            for t in 0..<tokens {
                for r in 0..<stride {
                    let (a, b) = (expected[t * stride + r], tiled[t * stride + r])
                    if r < first || r >= rows {
                        untouched = untouched && b.isNaN
                    } else if a.bitPattern != b.bitPattern {
                        differing += 1
                    }
                }
            }
            #expect(differing == 0, "\(name) \(cols)×\(rows) rows \(first)..., \(tokens) tokens: \(differing) outputs differ")
            #expect(untouched, "\(name): outputs outside the row range stay untouched")
            for t in [0, tokens / 2, tokens - 1] {
                let reference = (first..<rows).map { referenceDot(w, q8_0: false, row: $0, cols: cols, x, token: t).bitPattern }
                #expect(tiled[(t * stride + first)..<(t * stride + rows)].map(\.bitPattern) == reference, "\(name) token \(t)")
            }
        }
    }

    @Test func tiledQ4_1EqualsTheDecodeKernelForEachToken() {
        var random = KernelRandom(seed: 12)
        let cols = 576, rows = 24, tokens = 9
        let w = randomQ4_1(rows: rows, cols: cols, random: &random)
        let x = QuantizedRows((0..<(tokens * cols)).map { _ in random.signed() * 2 })
        for level in supportedLevels {
            #expect(fmk_set_level(level) == 0)
            var tiled = [Float](repeating: 0, count: tokens * rows)
            fmk_matmul_q4_1_tiled(w, Int32(cols), 0, Int32(rows), x.qs, x.d, x.s, Int32(tokens), &tiled, rows)
            for t in 0..<tokens {
                var single = [Float](repeating: 0, count: rows)
                let blocks = cols / 32
                x.qs.withUnsafeBufferPointer { qs in
                    x.d.withUnsafeBufferPointer { d in
                        x.s.withUnsafeBufferPointer { s in
                            fmk_matvec_q4_1(w, Int32(cols), 0, Int32(rows), qs.baseAddress! + t * cols, d.baseAddress! + t * blocks,
                                            s.baseAddress! + t * blocks, &single)
                        }
                    }
                }
                #expect(single.map(\.bitPattern) == Array(tiled[(t * rows)..<((t + 1) * rows)]).map(\.bitPattern),
                        "\(levelName(level)) token \(t)")
            }
        }
        fmk_set_level(-1)
    }

    /// The real model prefilled with each kernel: every logit after a prompt longer than one pass of
    /// 128 tokens, and the greedy continuation, are the same bits.
    @Test func tilesAndRowsGiveIdenticalLogitsAndTokensOnTheRealModel() throws {
        struct Case: Decodable { let promptTokens: [Int32] }
        struct File: Decodable { let cases: [Case] }
        let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../reference/smollm2/greedy-public.json").standardized
        let prompt = try JSONDecoder().decode(File.self, from: Data(contentsOf: reference)).cases.flatMap(\.promptTokens)
        #expect(prompt.count > 128, "the prompt spans more than one prefill pass")
        let url = try ModelStore.defaultModelURL { print($0) }
        var logits: [[UInt32]] = [], tokens: [[Int32]] = []
        for kernel in [PrefillKernel.rows, .tiles] {
            let generator = Generator(model: try LlamaModel(file: try GGUFFile(path: url.path), contextLength: 1024,
                                                           prefillKernel: kernel))
            #expect(generator.model.prefillKernel == kernel)
            logits.append(try generator.logits(after: prompt).map(\.bitPattern))
            generator.resetCache()
            tokens.append(try generator.generate(GenerationRequest(prompt: prompt, maxTokens: 12)).tokens)
        }
        #expect(logits[0] == logits[1], "logits differ at \(zip(logits[0], logits[1]).filter { $0 != $1 }.count) ids")
        #expect(tokens[0] == tokens[1] && tokens[0].count == 12)
    }
}
