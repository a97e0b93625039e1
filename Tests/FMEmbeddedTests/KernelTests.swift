import FMKernels
import FMEmbedded
import Foundation
import Testing

/// A small deterministic generator so kernel tests are reproducible.
struct KernelRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var z = state
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        return z ^ (z >> 29)
    }
    /// Uniform in [-1, 1).
    mutating func signed() -> Float { Float(next() >> 40) / Float(1 << 23) - 1 }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 32) }
}

/// Random Q4_1 rows in ggml's block layout.
func randomQ4_1(rows: Int, cols: Int, random: inout KernelRandom) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<(rows * cols / 32) {
        let d = Float16(0.01 + abs(random.signed()) * 0.05), m = Float16(random.signed() * 0.2)
        withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: m.bitPattern.littleEndian) { bytes += $0 }
        for _ in 0..<16 { bytes.append(random.byte()) }
    }
    return bytes
}

/// Random Q8_0 rows in ggml's block layout (quants in -127...127).
func randomQ8_0(rows: Int, cols: Int, random: inout KernelRandom) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<(rows * cols / 32) {
        let d = Float16(0.001 + abs(random.signed()) * 0.01)
        withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 }
        for _ in 0..<32 { bytes.append(UInt8(bitPattern: Int8(Int(random.next() % 255) - 127))) }
    }
    return bytes
}

/// Q8 activations quantized by the kernel library.
struct QuantizedRows {
    var qs: [Int8], d: [Float], s: [Float]
    init(_ x: [Float]) {
        qs = [Int8](repeating: 0, count: x.count)
        d = [Float](repeating: 0, count: x.count / 32)
        s = d
        fmk_quantize_q8_1(x, Int32(x.count), &qs, &d, &s)
    }
}

private func half(_ bytes: [UInt8], _ offset: Int) -> Float {
    Float(Float16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
}

/// The block dot product in ggml's x86 summation order, written out independently of the C code: per
/// block the scale d_w·d_x rounded to float; eight lanes of four elements' exact integer products, each
/// lane's accumulator advanced by one fused multiply-add per block; Q4_1's minimums m_w·s_x in their own
/// fused chain; the lanes added ((0+4)+(2+6))+((1+5)+(3+7)), then the minimums. Every level must give
/// exactly these bits.
func referenceDot(_ w: [UInt8], q8_0: Bool, row: Int, cols: Int, _ x: QuantizedRows, token: Int) -> Float {
    let blockBytes = q8_0 ? 34 : 20
    var lanes = [Float](repeating: 0, count: 8), mins: Float = 0
    for b in 0..<(cols / 32) {
        let base = (row * cols / 32 + b) * blockBytes, xb = token * cols / 32 + b
        let scale = half(w, base) * x.d[xb]
        for lane in 0..<8 {
            var dot = 0
            for j in (4 * lane)..<(4 * lane + 4) {
                let quant = q8_0 ? Int(Int8(bitPattern: w[base + 2 + j]))
                                 : Int(j < 16 ? w[base + 4 + j] & 0x0F : w[base + 4 + j - 16] >> 4)
                dot += quant * Int(x.qs[token * cols + b * 32 + j])
            }
            lanes[lane] = lanes[lane].addingProduct(scale, Float(dot))
        }
        if !q8_0 { mins = mins.addingProduct(half(w, base + 2), x.s[xb]) }
    }
    return ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7])) + mins
}

/// Every level this CPU runs, portable first.
var supportedLevels: [Int32] { KernelLevel.available.map(\.rawValue) }

/// Runs `body` with the calling thread at `level`, then puts the thread back on the detected level.
func atLevel<T>(_ level: Int32, _ body: () throws -> T) rethrows -> T {
    #expect(fmk_set_level(level) == 0, "this CPU runs level \(level)")
    defer { fmk_set_level(-1) }
    return try body()
}

/// A level's name, for messages.
func levelName(_ level: Int32) -> String { String(cString: fmk_level_name(level)) }

@Suite(.serialized) struct KernelTests {
    @Test func halfConversionMatchesSwiftFloat16() {
        var random = KernelRandom(seed: 1)
        var values: [Float] = [0, -0, 1, -2.5, 65504, 65520, 1e-8, 6.1e-5, 5.96e-8, 3e-7, .infinity, -.infinity]
        for _ in 0..<2000 { values.append(random.signed() * Float(1 << (random.next() % 20)) / 1024) }
        for value in values {
            let bits = fmk_f32_to_f16(value)
            #expect(bits == Float16(value).bitPattern, "f32→f16 of \(value)")
            #expect(fmk_f16_to_f32(bits) == Float(Float16(bitPattern: bits)), "f16→f32 of \(value)")
        }
        for level in supportedLevels {
            var row = [UInt16](repeating: 0, count: values.count)
            atLevel(level) { fmk_f32_to_f16_row(values, &row, Int32(values.count)) }
            #expect(row == values.map { Float16($0).bitPattern }, "row conversion at \(levelName(level))")
        }
    }

    @Test func levelsAreAvailableOnlyWhereTheCPURunsThemAndSetPerThread() {
        let detected = fmk_detected_level()
        #expect(KernelLevel.available.first == .portable && KernelLevel.available.last == KernelLevel.detected)
        #expect(fmk_level_available(-2) == 0 && fmk_level_available(FMK_LEVEL_COUNT) == 0)
        #expect(fmk_set_level(FMK_LEVEL_COUNT) == -1 && fmk_thread_level() == -1, "an unknown level changes nothing")
        #if arch(x86_64)
        #expect(fmk_level_available(Int32(FMK_LEVEL_NEON.rawValue)) == 0, "no NEON on x86-64")
        #elseif arch(arm64)
        #expect(fmk_level_available(Int32(FMK_LEVEL_AVX2.rawValue)) == 0, "no AVX2 on arm64")
        #expect(fmk_level_available(Int32(FMK_LEVEL_NEON.rawValue)) == 1)
        #endif
        #expect(fmk_set_level(0) == 0 && fmk_thread_level() == 0 && fmk_active_level() == 0)
        #expect(fmk_set_level(-1) == 0 && fmk_thread_level() == -1 && fmk_active_level() == detected)
        #expect(KernelLevel.named("portable") == .portable && KernelLevel.named("sse9") == nil)
    }

    @Test func aLevelSetOnOneThreadLeavesEveryOtherThreadsLevelAlone() {
        let pool = ThreadPool(threadCount: 3)
        let values = (0..<64).map { Float($0) / 7 - 4 }, expected = values.map { Float16($0).bitPattern }
        let levels = supportedLevels, detected = fmk_detected_level()
        let wrong = UnsafeMutablePointer<Int>.allocate(capacity: pool.activeCount)
        wrong.initialize(repeating: 0, count: pool.activeCount)
        defer { wrong.deallocate() }
        pool.run { index in
            var row = [UInt16](repeating: 0, count: values.count)
            for step in 0..<2_000 {
                if index == 0 {
                    let level = levels[step % levels.count]
                    if fmk_set_level(level) != 0 || fmk_active_level() != level { wrong[index] += 1 }
                } else {
                    fmk_f32_to_f16_row(values, &row, Int32(values.count))
                    if row != expected || fmk_active_level() != detected { wrong[index] += 1 }
                }
            }
        }
        #expect((0..<pool.activeCount).allSatisfy { wrong[$0] == 0 })
        #expect(fmk_thread_level() == -1 && fmk_active_level() == detected, "the caller's own level is back after the run")
    }

    @Test func aPoolComputesAtItsLevelOnEveryThreadAndLeavesTheCallersAlone() {
        for level in KernelLevel.available {
            let pool = ThreadPool(threadCount: 3, kernelLevel: level)
            let seen = UnsafeMutablePointer<Int32>.allocate(capacity: pool.activeCount)
            defer { seen.deallocate() }
            pool.run { index in seen[index] = fmk_active_level() }
            #expect((0..<pool.activeCount).allSatisfy { seen[$0] == level.rawValue }, "\(level)")
            #expect(fmk_thread_level() == -1)
        }
    }

    @Test func quantizationFollowsLlamaCppRounding() {
        var x = [Float](repeating: 0, count: 64)
        for i in 0..<32 { x[i] = Float(i - 16) / 4 }   // amax 4: d = 4/127, q = round-half-even(x·127/4)
        let q = QuantizedRows(x)
        #expect(q.d[0] == Float(Float16(Float(4) / 127)))
        #expect(q.qs[0] == -127 && q.qs[31] == Int8((Float(15) / 4 * (127 / Float(4))).rounded(.toNearestOrEven)))
        #expect(q.d[1] == 0 && q.s[1] == 0 && !q.qs[32..<64].contains { $0 != 0 })
        let sum = q.qs[0..<32].reduce(0) { $0 + Int($1) }
        #expect(q.s[0] == Float(Float16(Float(4) / 127 * Float(sum))))
    }

    @Test func quantizationGivesTheSameBitsAtEveryLevel() {
        var random = KernelRandom(seed: 3)
        let x = (0..<(9 * 576)).map { i in random.signed() * (i % 97 == 0 ? 60 : 3) }
        let portable = atLevel(0) { QuantizedRows(x) }
        for level in supportedLevels.dropFirst() {
            let rows = atLevel(level) { QuantizedRows(x) }
            #expect(rows.qs == portable.qs && rows.d.map(\.bitPattern) == portable.d.map(\.bitPattern)
                    && rows.s.map(\.bitPattern) == portable.s.map(\.bitPattern), "\(levelName(level))")
        }
    }

    @Test(arguments: [32, 576, 1536])
    func q4_1KernelsGiveTheReferenceOrdersBitsAtEveryLevel(cols: Int) {
        var random = KernelRandom(seed: UInt64(cols))
        let rows = 53, tokens = 7
        let w = randomQ4_1(rows: rows, cols: cols, random: &random)
        let x = QuantizedRows((0..<(tokens * cols)).map { i in random.signed() * (i % 97 == 0 ? 60 : 3) })
        let expected = (0..<tokens).map { t in (0..<rows).map { referenceDot(w, q8_0: false, row: $0, cols: cols, x, token: t).bitPattern } }
        for level in supportedLevels {
            let name = levelName(level)
            var out = [Float](repeating: .nan, count: rows)
            atLevel(level) { fmk_matvec_q4_1(w, Int32(cols), 3, Int32(rows), x.qs, x.d, x.s, &out) }
            #expect(out[0..<3].allSatisfy { $0.isNaN }, "rows outside the range stay untouched (\(name))")
            #expect(out[3...].map(\.bitPattern) == Array(expected[0][3...]), "\(name) matvec")
            // Packed in groups of sixteen (rows 0..<48); rows 3..<16 and 48..<53 lie outside whole groups.
            var packed = [UInt8](repeating: 0, count: w.count)
            fmk_pack_q4_1(w, Int32(rows / Int(FMK_Q4_1_PACK_ROWS) * Int(FMK_Q4_1_PACK_ROWS)), Int32(cols), &packed)
            for batch in [1, 2, 4, tokens] {
                var fromPacked = [Float](repeating: .nan, count: batch * rows)
                atLevel(level) {
                    fmk_matmul_q4_1_packed(w, packed, Int32(cols), 3, Int32(rows), x.qs, x.d, x.s, Int32(batch),
                                           &fromPacked, rows)
                }
                for t in 0..<batch {
                    let got = fromPacked[(t * rows)..<((t + 1) * rows)]
                    #expect(got.prefix(3).allSatisfy { $0.isNaN }, "packed: rows outside stay untouched (\(name))")
                    #expect(got.dropFirst(3).map(\.bitPattern) == Array(expected[t][3...]),
                            "\(name) packed, \(batch) tokens")
                }
            }
            for tiled in [false, true] {
                var batch = [Float](repeating: .nan, count: tokens * (rows + 1))
                atLevel(level) {
                    if tiled {
                        fmk_matmul_q4_1_tiled(w, Int32(cols), 0, Int32(rows), x.qs, x.d, x.s, Int32(tokens), &batch, rows + 1)
                    } else {
                        fmk_matmul_q4_1(w, Int32(cols), 0, Int32(rows), x.qs, x.d, x.s, Int32(tokens), &batch, rows + 1)
                    }
                }
                for t in 0..<tokens {
                    let got = batch[(t * (rows + 1))..<(t * (rows + 1) + rows)].map(\.bitPattern)
                    #expect(got == expected[t], "\(name) \(tiled ? "tiled" : "row") matmul token \(t)")
                }
            }
        }
    }

    @Test(arguments: [64, 576])
    func q8_0KernelsGiveTheReferenceOrdersBitsAtEveryLevel(cols: Int) {
        var random = KernelRandom(seed: UInt64(cols) + 7)
        let rows = 70, tokens = 6
        let w = randomQ8_0(rows: rows, cols: cols, random: &random)
        let x = QuantizedRows((0..<(tokens * cols)).map { _ in random.signed() })
        let expected = (0..<tokens).map { t in (0..<rows).map { referenceDot(w, q8_0: true, row: $0, cols: cols, x, token: t).bitPattern } }
        var mask = [UInt32](repeating: 0, count: 3)
        // Lone rows, and whole groups of four (40..<48, aligned) and five (58..<63, not), which the
        // AVX-512 kernel takes four at a time.
        let allowed = Set([0, 5, 31, 32, 69] + Array(40..<48) + Array(58..<63))
        for r in allowed { mask[r / 32] |= 1 << UInt32(r % 32) }
        for level in supportedLevels {
            let name = levelName(level)
            var out = [Float](repeating: 0, count: rows), masked = out, batch = [Float](repeating: 0, count: tokens * rows)
            atLevel(level) {
                fmk_matvec_q8_0(w, Int32(cols), 0, Int32(rows), x.qs, x.d, nil, &out)
                fmk_matvec_q8_0(w, Int32(cols), 0, Int32(rows), x.qs, x.d, mask, &masked)
                fmk_matmul_q8_0(w, Int32(cols), 0, Int32(rows), x.qs, x.d, Int32(tokens), &batch, rows)
            }
            #expect(out.map(\.bitPattern) == expected[0], "\(name) matvec")
            for r in 0..<rows {
                #expect(allowed.contains(r) ? masked[r] == out[r] : masked[r] == -.infinity, "\(name) masked row \(r)")
            }
            for t in 0..<tokens {
                #expect(batch[(t * rows)..<((t + 1) * rows)].map(\.bitPattern) == expected[t], "\(name) matmul token \(t)")
            }
            // A batched step's output layer: every token at once, odd tokens under the mask.
            var logits = [Float](repeating: .nan, count: tokens * rows)
            x.qs.withUnsafeBufferPointer { qs in
                x.d.withUnsafeBufferPointer { d in
                    mask.withUnsafeBufferPointer { maskBits in
                        logits.withUnsafeMutableBufferPointer { logits in
                            let quants = (0..<tokens).map { Optional(qs.baseAddress! + $0 * cols) }
                            let scales = (0..<tokens).map { Optional(d.baseAddress! + $0 * cols / 32) }
                            let masks = (0..<tokens).map { $0 % 2 == 1 ? maskBits.baseAddress : nil }
                            let outs = (0..<tokens).map { Optional(logits.baseAddress! + $0 * rows) }
                            atLevel(level) {
                                fmk_logits_q8_0(w, Int32(cols), 0, Int32(rows), Int32(tokens), quants, scales,
                                                masks, outs)
                            }
                        }
                    }
                }
            }
            for t in 0..<tokens {
                let got = logits[(t * rows)..<((t + 1) * rows)].map(\.bitPattern)
                let want = (0..<rows).map {
                    t % 2 == 1 && !allowed.contains($0) ? (-Float.infinity).bitPattern : expected[t][$0]
                }
                #expect(got == want, "\(name) output layer, token \(t)")
            }
        }
    }

    @Test func quantizedDotApproximatesFloatDot() {
        var random = KernelRandom(seed: 99)
        let cols = 576
        let w = randomQ4_1(rows: 1, cols: cols, random: &random)
        let xs = (0..<cols).map { _ in random.signed() }
        let x = QuantizedRows(xs)
        var exact = 0.0
        for b in 0..<(cols / 32) {
            for j in 0..<32 {
                let byte = w[b * 20 + 4 + j % 16]
                let q = j < 16 ? byte & 0x0F : byte >> 4
                exact += Double(half(w, b * 20) * Float(q) + half(w, b * 20 + 2)) * Double(xs[b * 32 + j])
            }
        }
        var out: Float = 0
        fmk_matvec_q4_1(w, Int32(cols), 0, 1, x.qs, x.d, x.s, &out)
        #expect(abs(Double(out) - exact) < 0.02 * max(1, abs(exact)), "quantized \(out) vs float \(exact)")
    }

    @Test func halfAttentionMatchesSoftmaxReferenceIdenticallyAtEveryLevel() {
        var random = KernelRandom(seed: 5)
        let dim = 64, stride = 192, capacity = 200
        let q = (0..<dim).map { _ in Float16(random.signed()) }
        let k = (0..<(capacity * stride)).map { _ in Float16(random.signed() * 2) }
        let v = (0..<(dim * capacity)).map { _ in Float16(random.signed()) }   // transposed: [dim][capacity]
        let scale: Float = 0.125
        for positions in [1, 13, 16, 37, 63, 64, 65, 96, 100, 127, 128, 150, 199, 200] {
          for single in [0, 1] {
            var scores = (0..<positions).map { t in
                Double(scale) * (0..<dim).reduce(0.0) { $0 + Double(q[$1]) * Double(k[t * stride + $1]) }
            }
            let top = scores.max()!
            scores = scores.map { exp($0 - top) }
            let total = scores.reduce(0, +)
            var first: [UInt32]?
            for level in supportedLevels {
                var scratch = [Float](repeating: .nan, count: 208), out = [Float](repeating: 0, count: dim)
                atLevel(level) {
                    fmk_attend_f16(q.map(\.bitPattern), 1, k.map(\.bitPattern), stride, v.map(\.bitPattern), capacity,
                                   Int32(positions), Int32(dim), scale, Int32(single), &scratch, 208, &out)
                }
                for i in 0..<dim {
                    let expected = (0..<positions).reduce(0.0) { $0 + scores[$1] / total * Double(v[i * capacity + $1]) }
                    // The softmax reference is Double arithmetic, not the kernel's order: a tolerance here
                    // checks the mathematics; the bits are checked across levels below.
                    #expect(abs(Double(out[i]) - expected) < 2e-3, "level \(level), \(positions) positions, single \(single), element \(i)")
                }
                let bits = out.map(\.bitPattern)
                if let first { #expect(bits == first, "\(levelName(level)) gives the portable level's bits") } else { first = bits }
            }
          }
        }
    }

    @Test func headsTakenTogetherGetTheBitsEachGetsAlone() {
        var random = KernelRandom(seed: 6)
        let dim = 64, stride = 448, capacity = 300, heads = 7
        let q = (0..<(heads * dim)).map { _ in Float16(random.signed()).bitPattern }
        let k = (0..<(capacity * stride)).map { _ in Float16(random.signed() * 2).bitPattern }
        let v = (0..<(stride * capacity)).map { _ in Float16(random.signed()).bitPattern }   // [stride][capacity]
        for positions in [1, 15, 16, 17, 40, 64, 96, 97, 160, 161, 300] {
            for single in [0, 1] {
                for level in supportedLevels {
                    var alone = [Float](repeating: .nan, count: heads * dim), together = alone
                    var scratch = [Float](repeating: .nan, count: heads * 304)
                    atLevel(level) {
                        for h in 0..<heads {
                            var one = [Float](repeating: .nan, count: dim)
                            fmk_attend_f16(Array(q[(h * dim)...]), 1, k, stride, v, capacity, Int32(positions),
                                           Int32(dim), 0.125, Int32(single), &scratch, 304, &one)
                            alone.replaceSubrange((h * dim)..<((h + 1) * dim), with: one)
                        }
                        fmk_attend_f16(q, Int32(heads), k, stride, v, capacity, Int32(positions), Int32(dim), 0.125,
                                       Int32(single), &scratch, 304, &together)
                    }
                    #expect(together.map(\.bitPattern) == alone.map(\.bitPattern),
                            "\(levelName(level)), \(positions) positions, single \(single)")
                }
            }
        }
    }

    @Test func ggmlExpAndSwiGLUTrackLibmAndGiveTheSameBitsAtEveryLevel() {
        for x in stride(from: Float(-80), through: 80, by: 0.37) {
            #expect(abs(fmk_exp(x) - expf(x)) <= 4 * expf(x).ulp, "exp(\(x))")
        }
        #expect(fmk_exp(-200) == 0 && fmk_exp(200) == .infinity && fmk_exp(0) == 1)
        var gate: [Float] = [-3, -0.5, 0, 0.5, 3], up: [Float] = [1, 2, 3, 4, 5]
        let expected = zip(gate, up).map { x, u in x / (1 + expf(-x)) * u }
        fmk_swiglu(&gate, up, 5)
        for i in 0..<5 { #expect(abs(gate[i] - expected[i]) <= 4 * max(abs(expected[i]).ulp, Float.leastNormalMagnitude)) }
        var random = KernelRandom(seed: 8)
        let inputs = (0..<1000).map { _ in random.signed() * 12 }, ups = (0..<1000).map { _ in random.signed() * 4 }
        func outputs() -> [UInt32] {
            var g = inputs
            fmk_swiglu(&g, ups, Int32(g.count))
            return inputs.map { fmk_exp($0 * 8).bitPattern } + g.map(\.bitPattern)
        }
        let portable = atLevel(0) { outputs() }
        for level in supportedLevels.dropFirst() { #expect(atLevel(level) { outputs() } == portable, "\(levelName(level))") }
    }
}
