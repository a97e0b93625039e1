@testable import FMEmbedded
import Foundation
import Testing

/// Allows the ids with `(id + n) % modulus != 0` after `n` accepted tokens, and the stop token 2; every
/// `forceEvery`-th step it allows `forced` alone. Its copies are faithful, absent, or lying (a copy that
/// allows every token, so the generator must notice the masks differ).
private final class StepConstraint: TokenConstraint {
    enum Copies { case faithful, none, lying }
    private let modulus: Int, forceEvery: Int, forced: Int32, copies: Copies
    private var accepted = 0, lying = false

    init(modulus: Int, forceEvery: Int, forced: Int32 = 28, copies: Copies) {
        (self.modulus, self.forceEvery, self.forced, self.copies) = (modulus, forceEvery, forced, copies)
    }

    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>) {
        if lying {
            mask.update(repeating: .max)
        } else if forceEvery > 0 && accepted % forceEvery == forceEvery - 1 {
            mask[Int(forced) / 32] |= 1 << UInt32(forced % 32)
        } else {
            for id in 0..<(mask.count * 32) where (id + accepted) % modulus != 0 || id == 2 {
                mask[id / 32] |= 1 << UInt32(id % 32)
            }
        }
    }

    func accept(_ token: Int32) { accepted += 1 }

    func fork() -> TokenConstraint? {
        guard copies != .none else { return nil }
        let copy = StepConstraint(modulus: modulus, forceEvery: forceEvery, forced: forced, copies: copies)
        copy.accepted = accepted
        copy.lying = copies == .lying
        return copy
    }
}

/// This suite's own model (suites run in parallel, and a model runs one pass at a time).
private enum DraftingModel {
    static let model: Result<LlamaModel, Error> = Result {
        try LlamaModel(path: try ModelStore.defaultModelURL { print($0) }.path, contextLength: 2048)
    }
}

@Suite(.serialized) struct SpeculativeDecodeTests {
    @Test func draftsAreLookedUpAfterTheLongestRecentTail() {
        let sequence: [Int32] = [5, 6, 7, 8, 1, 6, 7, 9, 4, 6, 7]
        // The tail 6 7 last occurred before 9 (the tail 4 6 7 never did).
        #expect(PromptLookup.draft(after: sequence, count: 2) == [9, 4])
        #expect(PromptLookup.draft(after: sequence, count: 0).isEmpty)
        #expect(PromptLookup.draft(after: [1, 2, 3], count: 3).isEmpty)
        #expect(PromptLookup.draft(after: [3, 1, 2, 3], count: 5) == [1, 2, 3], "a draft stops where the sequence does")
        // An earlier output holding the whole tail wins over a shorter match in the sequence.
        #expect(PromptLookup.draft(after: sequence, count: 2, earlier: [[4, 6, 7, 30, 31], [0]]) == [30, 31])
        #expect(PromptLookup.draft(after: sequence, count: 2, earlier: [[6, 7, 30]]) == [9, 4], "no longer match")
        #expect(PromptLookup.draft(after: [40, 41], count: 2, earlier: [[40, 41, 42, 43]]) == [42, 43])
    }

    @Test func aMaskAllowsNothingOneTokenOrSeveral() {
        var words = [UInt32](repeating: 0, count: 4)
        let allowed = { (vocab: Int) in
            words.withUnsafeBufferPointer { Allowed.of($0.baseAddress!, vocabSize: vocab) }
        }
        #expect(allowed(100) == .nothing)
        words[2] = 1 << 5
        #expect(allowed(100) == .one(69))
        words[3] = 1 << 10
        #expect(allowed(128) == .several)
        #expect(allowed(106) == .one(69), "bits past the vocabulary do not count")
        words[2] = 0b11
        #expect(allowed(70) == .several)
    }

    @Test func aForcedChoiceDrawsAsSamplingOneCandidateDoes() {
        var single = [Float](repeating: -.infinity, count: 64), spread = [Float](repeating: 0, count: 64)
        single[9] = 1.5
        for i in spread.indices { spread[i] = Float(i % 7) * 0.3 }
        for parameters in [SamplingParameters(mode: .topK(20), temperature: 0.9, seed: 3), .greedy,
                           SamplingParameters(mode: .topP(0.9), temperature: 1.2, seed: 11)] {
            var sampled = Sampler(parameters), forced = Sampler(parameters)
            #expect(single.withUnsafeBufferPointer { sampled.sample($0) } == 9)
            #expect(forced.chooseForced(9) == 9)
            let after = { (sampler: inout Sampler) in
                spread.withUnsafeBufferPointer { b in (0..<30).map { _ in sampler.sample(b)! } }
            }
            #expect(after(&sampled) == after(&forced), "\(parameters)")
        }
    }

    @Test func draftsAndForcedTokensChangeNoToken() throws {
        let model = try DraftingModel.model.get()
        let references = try ReferencePrompt.all()
        let plain = Generator(model: model, maxSequences: 1, draftTokens: 0)
        let drafting = Generator(model: model, maxSequences: 1, draftTokens: 3)
        let variants: [(String, () -> TokenConstraint?, SamplingParameters)] = [
            ("free", { nil }, .greedy),
            ("masked drafts", { StepConstraint(modulus: 5, forceEvery: 4, copies: .faithful) }, .greedy),
            ("drafts masked after the step", { StepConstraint(modulus: 5, forceEvery: 4, copies: .none) }, .greedy),
            ("a copy that disagrees", { StepConstraint(modulus: 6, forceEvery: 0, copies: .lying) }, .greedy),
            ("sampled", { StepConstraint(modulus: 7, forceEvery: 5, copies: .faithful) },
             SamplingParameters(mode: .topK(8), temperature: 0.8, seed: 21)),
        ]
        for (name, constraint, sampling) in variants {
            var accepted = 0, forced = 0
            for (index, reference) in references.prefix(4).enumerated() {
                let request = { GenerationRequest(prompt: reference.promptTokens, maxTokens: 40, stopTokens: [2],
                                                  sampling: sampling, constraint: constraint()) }
                plain.resetCache()
                drafting.resetCache()
                let expected = try plain.generate(request()), ours = try drafting.generate(request())
                #expect(ours.tokens == expected.tokens && ours.finishReason == expected.finishReason,
                        "\(name), prompt \(index)")
                #expect(expected.draftTokens == 0 && ours.draftTokens >= ours.acceptedDraftTokens)
                accepted += ours.acceptedDraftTokens
                forced += ours.forcedTokens
            }
            #expect(accepted > 0, "\(name): no draft was ever kept, so the path went untested")
            #expect(forced > 0 || name == "free" || name == "a copy that disagrees", "\(name): nothing was forced")
        }
    }

    @Test func concurrentDraftsSplitIntoPassesOfTheModelsBatch() throws {
        let file = try GGUFFile(path: try ModelStore.defaultModelURL { print($0) }.path)
        let config = try LlamaConfig(file: file)
        let small = try LlamaModel(config: config, weights: try LlamaWeights(file: file, config: config), file: file,
                                   keepAlive: nil, contextLength: 2048, maxBatch: 4)
        let references = try ReferencePrompt.all()
        let jobs = (0..<3).map { Job(prompt: references[$0].promptTokens, maxTokens: 40, modulus: $0 == 1 ? 4 : nil) }
        let alone = Generator(model: try DraftingModel.model.get(), maxSequences: 1, draftTokens: 0)
        let expected = try jobs.map { job -> [Int32] in
            alone.resetCache()
            return try alone.generate(job.request()).tokens
        }
        let generator = Generator(model: small, maxSequences: 3, draftTokens: 3)
        let results = runConcurrently(jobs, on: generator)
        for (index, result) in results.enumerated() {
            let ours = try result.get()
            #expect(ours.tokens == expected[index], "prompt \(index)")
        }
        let stats = generator.decodeStats
        #expect(stats.largestBatch == 3 && stats.largestPass == 4,
                "steps of up to 12 tokens ran in passes of at most 4")
        #expect(results.reduce(0) { $0 + ((try? $1.get().acceptedDraftTokens) ?? 0) } > 0)
    }
}
