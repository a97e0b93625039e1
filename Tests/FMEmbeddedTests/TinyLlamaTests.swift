import FMCore
import FMEmbedded
import Foundation
import Testing

/// A tiny llama with random weights, written as a GGUF file, and a plain reference forward pass in
/// Double over the dequantized weights (no quantized activations, no half cache, no threads).
private struct TinyLlama {
    static let (dim, hidden, layers, heads, kvHeads, vocab) = (64, 96, 2, 4, 2, 80)
    static let headDim = dim / heads, ropeBase = 10_000.0
    var tensors: [String: (shape: [Int], type: GGMLType, bytes: [UInt8])] = [:]
    var path = ""

    init(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func uniform() -> Float { Float(random.next() >> 40) / Float(1 << 24) * 2 - 1 }
        func half(_ value: Float) -> [UInt8] { withUnsafeBytes(of: Float16(value).bitPattern.littleEndian) { Array($0) } }
        func q4_1(rows: Int, cols: Int) -> [UInt8] {
            (0..<(rows * cols / 32)).flatMap { _ in
                half(0.02 + abs(uniform()) * 0.03) + half(uniform() * 0.2) + (0..<16).map { _ in UInt8(random.next() & 0xFF) }
            }
        }
        func q8_0(rows: Int, cols: Int) -> [UInt8] {
            (0..<(rows * cols / 32)).flatMap { _ in half(0.01) + (0..<32).map { _ in UInt8(bitPattern: Int8(Int(random.next() % 255) - 127)) } }
        }
        func norm() -> [UInt8] { (0..<Self.dim).flatMap { _ in withUnsafeBytes(of: (1 + 0.2 * uniform()).bitPattern.littleEndian) { Array($0) } } }
        let (d, h, kv) = (Self.dim, Self.hidden, Self.kvHeads * Self.headDim)
        tensors["token_embd.weight"] = ([d, Self.vocab], .q8_0, q8_0(rows: Self.vocab, cols: d))
        tensors["output_norm.weight"] = ([d], .f32, norm())
        for l in 0..<Self.layers {
            let p = "blk.\(l)."
            tensors[p + "attn_norm.weight"] = ([d], .f32, norm())
            tensors[p + "ffn_norm.weight"] = ([d], .f32, norm())
            for (name, rows, cols) in [("attn_q", d, d), ("attn_k", kv, d), ("attn_v", kv, d), ("attn_output", d, d),
                                       ("ffn_gate", h, d), ("ffn_up", h, d), ("ffn_down", d, h)] {
                tensors[p + name + ".weight"] = ([cols, rows], .q4_1, q4_1(rows: rows, cols: cols))
            }
        }
        var writer = GGUFWriter()
        writer.add("general.architecture", .string("llama"))
        for (key, value) in [("block_count", Self.layers), ("embedding_length", d), ("feed_forward_length", h),
                             ("attention.head_count", Self.heads), ("attention.head_count_kv", Self.kvHeads), ("context_length", 64)] {
            writer.add("llama." + key, .uint32(UInt32(value)))
        }
        writer.add("llama.rope.freq_base", .float32(Float(Self.ropeBase)))
        writer.add("llama.attention.layer_norm_rms_epsilon", .float32(1e-5))
        for name in tensors.keys.sorted() {
            let t = tensors[name]!
            writer.addTensor(name: name, shape: t.shape, type: t.type, data: t.bytes)
        }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-tiny-\(getpid())-\(seed).gguf").path
        try writer.write(to: path)
    }

    /// The dequantized matrix `name` as rows of Doubles.
    func matrix(_ name: String) -> [[Double]] {
        let t = tensors[name]!
        let (cols, rows) = (t.shape[0], t.shape.count > 1 ? t.shape[1] : 1)
        func f16(_ i: Int) -> Double { Double(Float16(bitPattern: UInt16(t.bytes[i]) | UInt16(t.bytes[i + 1]) << 8)) }
        return (0..<rows).map { r in
            (0..<cols).map { c in
                let block = (r * cols + c) / 32, j = c % 32
                switch t.type {
                case .q4_1:
                    let base = block * 20, byte = t.bytes[base + 4 + j % 16]
                    return f16(base) * Double(j < 16 ? byte & 0x0F : byte >> 4) + f16(base + 2)
                case .q8_0:
                    return f16(block * 34) * Double(Int8(bitPattern: t.bytes[block * 34 + 2 + j]))
                default:
                    return Double(t.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4 * c, as: Float.self) })
                }
            }
        }
    }

    /// Logits after each token of `tokens`, computed naively.
    func referenceLogits(_ tokens: [Int32]) -> [[Double]] {
        func matvec(_ m: [[Double]], _ x: [Double]) -> [Double] { m.map { row in zip(row, x).reduce(0) { $0 + $1.0 * $1.1 } } }
        func rmsnorm(_ x: [Double], _ gain: [Double]) -> [Double] {
            let scale = 1 / (x.reduce(0) { $0 + $1 * $1 } / Double(x.count) + 1e-5).squareRoot()
            return zip(x, gain).map { $0 * scale * $1 }
        }
        func rope(_ x: inout [Double], position: Int) {
            for head in 0..<(x.count / Self.headDim) {
                for i in 0..<(Self.headDim / 2) {
                    let theta = Double(position) * pow(Self.ropeBase, -2 * Double(i) / Double(Self.headDim))
                    let (a, b) = (x[head * Self.headDim + 2 * i], x[head * Self.headDim + 2 * i + 1])
                    x[head * Self.headDim + 2 * i] = a * cos(theta) - b * sin(theta)
                    x[head * Self.headDim + 2 * i + 1] = a * sin(theta) + b * cos(theta)
                }
            }
        }
        let embedding = matrix("token_embd.weight")
        var keys = [[[Double]]](repeating: [], count: Self.layers), values = keys
        var result: [[Double]] = []
        for (position, token) in tokens.enumerated() {
            var x = embedding[Int(token)]
            for l in 0..<Self.layers {
                let p = "blk.\(l)."
                let xb = rmsnorm(x, matrix(p + "attn_norm.weight")[0])
                var q = matvec(matrix(p + "attn_q.weight"), xb), k = matvec(matrix(p + "attn_k.weight"), xb)
                rope(&q, position: position)
                rope(&k, position: position)
                keys[l].append(k)
                values[l].append(matvec(matrix(p + "attn_v.weight"), xb))
                var attention = [Double](repeating: 0, count: Self.dim)
                for head in 0..<Self.heads {
                    let kvHead = head / (Self.heads / Self.kvHeads), qs = head * Self.headDim, ks = kvHead * Self.headDim
                    let scores = keys[l].map { key in
                        (0..<Self.headDim).reduce(0.0) { $0 + q[qs + $1] * key[ks + $1] } / Double(Self.headDim).squareRoot()
                    }
                    let top = scores.max()!, weights = scores.map { exp($0 - top) }, total = weights.reduce(0, +)
                    for (t, weight) in weights.enumerated() {
                        for i in 0..<Self.headDim { attention[qs + i] += weight / total * values[l][t][ks + i] }
                    }
                }
                x = zip(x, matvec(matrix(p + "attn_output.weight"), attention)).map { $0 + $1 }
                let xf = rmsnorm(x, matrix(p + "ffn_norm.weight")[0])
                let gate = matvec(matrix(p + "ffn_gate.weight"), xf), up = matvec(matrix(p + "ffn_up.weight"), xf)
                let hidden = zip(gate, up).map { g, u in g / (1 + exp(-g)) * u }
                x = zip(x, matvec(matrix(p + "ffn_down.weight"), hidden)).map { $0 + $1 }
            }
            result.append(matvec(embedding, rmsnorm(x, matrix("output_norm.weight")[0])))
        }
        return result
    }
}

/// Allows only the tokens in `allowed`; records what it was told.
private final class SetConstraint: TokenConstraint {
    let allowed: [Int32]
    var accepted: [Int32] = []
    init(_ allowed: [Int32]) { self.allowed = allowed }
    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>) {
        for t in allowed { mask[Int(t) / 32] |= 1 << UInt32(t % 32) }
    }
    func accept(_ token: Int32) { accepted.append(token) }
}

@Suite struct TinyLlamaTests {
    @Test func forwardMatchesPlainReferenceTokenByTokenAndBatched() throws {
        let tiny = try TinyLlama(seed: 3)
        defer { try? FileManager.default.removeItem(atPath: tiny.path) }
        let tokens: [Int32] = [5, 17, 42, 3, 77, 0, 31, 64, 12, 50]
        let reference = tiny.referenceLogits(tokens)
        let model = try LlamaModel(path: tiny.path, threads: 2)
        #expect(model.config.headDim == 16 && model.config.kvDim == 32 && model.config.contextLength == 64)
        for (position, token) in tokens.enumerated() {
            try model.forward([token], startPosition: position)
            let ours = Array(model.logits), expected = reference[position]
            let scale = expected.map(abs).max()!
            let worst = zip(ours, expected).map { abs(Double($0) - $1) }.max()!
            #expect(worst < 0.03 * scale, "position \(position): max difference \(worst) of logits up to \(scale)")
        }
        let stepwise = Array(model.logits)
        try model.forward(tokens, startPosition: 0)
        let batched = Array(model.logits)
        #expect(zip(batched, stepwise).allSatisfy { abs($0 - $1) < 1e-3 * max(1, abs($1)) })
    }

    @Test func generatorHonoursConstraintStopAndContext() throws {
        let tiny = try TinyLlama(seed: 4)
        defer { try? FileManager.default.removeItem(atPath: tiny.path) }
        let generator = Generator(model: try LlamaModel(path: tiny.path, contextLength: 24, threads: 2))
        let constraint = SetConstraint([7, 9, 11])
        let constrained = try generator.generate(GenerationRequest(prompt: [1, 2, 3], maxTokens: 6, constraint: constraint))
        #expect(constrained.tokens.count == 6 && constrained.tokens.allSatisfy { [7, 9, 11].contains($0) })
        #expect(constraint.accepted == constrained.tokens && constrained.finishReason == .length)
        let greedy = try generator.generate(GenerationRequest(prompt: [1, 2, 3], maxTokens: 6))
        // The last two prompt tokens run together, as in a cold run's pass, so the logits stay a cold run's.
        #expect(greedy.reusedPromptTokens == 1)
        let stop = greedy.tokens[2]
        let stopped = try generator.generate(GenerationRequest(prompt: [1, 2, 3], maxTokens: 6, stopTokens: [stop]))
        #expect(stopped.tokens == Array(greedy.tokens.prefix { $0 != stop }) && stopped.finishReason == .stop(stop))
        let full = try generator.generate(GenerationRequest(prompt: Array(repeating: 4, count: 20), maxTokens: 50))
        #expect(full.finishReason == .contextFull && full.tokens.count == 5)
        #expect(throws: LlamaRunError.self) { try generator.generate(GenerationRequest(prompt: Array(repeating: 4, count: 30), maxTokens: 1)) }
        #expect(throws: LlamaRunError.self) { try generator.generate(GenerationRequest(prompt: [1, 500], maxTokens: 1)) }
        let nothing = try generator.generate(GenerationRequest(prompt: [1, 2], maxTokens: 3, constraint: SetConstraint([])))
        #expect(nothing.finishReason == .constraintExhausted && nothing.tokens.isEmpty)
    }

    @Test func aDecodeProfileTimesEveryPhaseAndChangesNoToken() throws {
        let tiny = try TinyLlama(seed: 5)
        defer { try? FileManager.default.removeItem(atPath: tiny.path) }
        let model = try LlamaModel(path: tiny.path, contextLength: 24, threads: 2)
        let generator = Generator(model: model, draftTokens: 0)
        let request = { GenerationRequest(prompt: [1, 2, 3], maxTokens: 6, constraint: SetConstraint([7, 9, 11, 13])) }
        let plain = try generator.generate(request())
        generator.resetCache()
        let profile = DecodeProfile()
        model.decodeProfile = profile
        let profiled = try generator.generate(request())
        model.decodeProfile = nil
        #expect(profiled.tokens == plain.tokens)
        #expect(profile.steps == profiled.tokens.count - 1, "one step per token after the first")
        for phase in DecodeProfile.Phase.allCases {
            #expect(profile.millisecondsPerStep(phase) > 0, "\(phase.key) was not timed")
        }
        let steps = profile.steps
        _ = try generator.generate(request())
        #expect(profile.steps == steps, "a detached profile takes no more steps")
    }

    @Test func seededSamplingIsReproducibleAndRespectsTopK() throws {
        var logits = [Float](repeating: -.infinity, count: 50)
        for (i, v) in [(3, 2.0), (8, 1.5), (20, 1.4), (40, 0.1)] as [(Int, Float)] { logits[i] = v }
        let draws = { (parameters: SamplingParameters) -> [Int32] in
            var sampler = Sampler(parameters)
            return logits.withUnsafeBufferPointer { buffer in (0..<200).map { _ in sampler.sample(buffer)! } }
        }
        let topTwo = draws(SamplingParameters(mode: .topK(2), temperature: 1, seed: 9))
        #expect(Set(topTwo) == [3, 8] && topTwo == draws(SamplingParameters(mode: .topK(2), temperature: 1, seed: 9)))
        #expect(Set(draws(SamplingParameters(mode: .topP(0.99), temperature: 1, seed: 1))) == [3, 8, 20, 40])
        #expect(Set(draws(.greedy)) == [3])
    }
}
