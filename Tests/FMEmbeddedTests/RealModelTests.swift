import FMEmbedded
import Foundation
import Testing

/// One prompt of reference/smollm2/greedy-public.json (llama.cpp's behaviour on the model).
private struct GreedyReferenceCase: Decodable {
    struct Logit: Decodable { let token: Int32; let logit: Float }
    let user: String
    let promptTokens: [Int32]
    let greedyTokens: [Int32]
    let firstStepTop5: [Logit]
}

/// The default model (fetched through the model store on first use) and llama.cpp's reference outputs.
private enum RealModel {
    static let referencePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../reference/smollm2/greedy-public.json").standardized

    static let generator: Result<Generator, Error> = Result {
        let url = try ModelStore.defaultModelURL { print($0) }
        return Generator(model: try LlamaModel(path: url.path, contextLength: 2048))
    }

    static func cases() throws -> [GreedyReferenceCase] {
        struct File: Decodable { let cases: [GreedyReferenceCase] }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: referencePath)).cases
    }
}

@Suite(.serialized) struct RealModelTests {
    /// At every kernel level this CPU runs (each its own model, every thread of its pool at that
    /// level): every reference prompt's greedy tokens equal llama.cpp's, and the first-step logits are
    /// the bits of the detected level's.
    @Test(arguments: KernelLevel.available)
    func greedyTokensEqualLlamaCppForEveryReferenceTokenAtEveryKernelLevel(level: KernelLevel) throws {
        let url = try ModelStore.defaultModelURL { print($0) }
        let generator = Generator(model: try LlamaModel(file: try GGUFFile(path: url.path), contextLength: 2048,
                                                       kernelLevel: level))
        #expect(generator.model.kernelLevel == level)
        let cases = try RealModel.cases()
        var matching = 0
        for reference in cases {
            let result = try generator.generate(GenerationRequest(prompt: reference.promptTokens,
                                                                  maxTokens: reference.greedyTokens.count, stopTokens: [2]))
            var ours = result.tokens
            if case .stop(let token) = result.finishReason { ours.append(token) }
            // The issue asks for at least 32 tokens; every reference token (up to 48, stop included) matches.
            #expect(ours == reference.greedyTokens, "\(level): prompt: \(reference.user)")
            if ours == reference.greedyTokens { matching += 1 }
        }
        print("kernel level \(level): greedy tokens equal llama.cpp's on \(matching) of \(cases.count) prompts")
        let detected = try RealModel.generator.get()
        let expected = try detected.logits(after: cases[0].promptTokens).map(\.bitPattern)
        generator.resetCache()
        #expect(try generator.logits(after: cases[0].promptTokens).map(\.bitPattern) == expected, "\(level) logits")
    }

    @Test func firstStepTopLogitsWithinTolerance() throws {
        let generator = try RealModel.generator.get()
        for reference in try RealModel.cases() {
            let logits = try generator.logits(after: reference.promptTokens)
            for expected in reference.firstStepTop5 {
                let ours = logits[Int(expected.token)]
                #expect(abs(ours - expected.logit) <= 0.05, "prompt '\(reference.user)' token \(expected.token): \(ours) vs \(expected.logit)")
            }
            let top = logits.indices.max { logits[$0] < logits[$1] }
            #expect(top.map(Int32.init) == reference.firstStepTop5[0].token, "argmax for '\(reference.user)'")
        }
    }

    @Test func prefixReuseSkipsSharedTokensAndChangesNothing() throws {
        let generator = try RealModel.generator.get()
        let cases = try RealModel.cases()
        let (first, second) = (cases[0].promptTokens, cases[1].promptTokens)
        let shared = zip(first, second).prefix { $0 == $1 }.count
        generator.resetCache()
        _ = try generator.generate(GenerationRequest(prompt: first, maxTokens: 4, stopTokens: [2]))
        let reused = try generator.generate(GenerationRequest(prompt: second, maxTokens: 12, stopTokens: [2]))
        #expect(reused.reusedPromptTokens == shared && shared > 10)
        generator.resetCache()
        let fresh = try generator.generate(GenerationRequest(prompt: second, maxTokens: 12, stopTokens: [2]))
        #expect(fresh.reusedPromptTokens == 0)
        #expect(fresh.tokens == reused.tokens)
        let repeated = try generator.generate(GenerationRequest(prompt: second, maxTokens: 12, stopTokens: [2]))
        // A repeat recomputes its last two tokens together, as a cold run's last pass has them (a token
        // alone would run decode-step attention, whose sums are ordered differently).
        #expect(second.count < 128 && repeated.reusedPromptTokens == second.count - 2 && repeated.tokens == fresh.tokens)
    }
}
