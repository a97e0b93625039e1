import Dispatch
import FMCore
import FMEmbedded
import Foundation
import Testing

/// The prefix cache on the default model (fetched through the model store on first use): what it
/// restores gives the same logits, bit for bit, as computing the prompt from an empty cache.
/// Run optimized: `swift test -c release -Xswiftc -enable-testing --filter RealModelPrefixCache`.
@Suite(.serialized) struct RealModelPrefixCacheTests {
    static let model = Result { try LlamaModel(path: try ModelStore.defaultModelURL { print($0) }.path, contextLength: 1024) }
    /// A second copy for cold runs, so they never overwrite the KV cache a warm generator relies on.
    static let coldModel = Result { try LlamaModel(path: try ModelStore.defaultModelURL { print($0) }.path, contextLength: 1024) }

    /// The prompts of reference/smollm2/greedy-public.json: ChatML with a shared system prompt.
    static let prompts = Result { () throws -> [[Int32]] in
        struct Case: Decodable { let promptTokens: [Int32] }
        struct File: Decodable { let cases: [Case] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../reference/smollm2/greedy-public.json").standardized
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases.map(\.promptTokens)
    }

    /// A generator over the shared model with an empty cache of `budget` bytes.
    func makeGenerator(budget: Int = PrefixCache.defaultBudgetBytes) throws -> Generator {
        Generator(model: try Self.model.get(), prefixCacheBytes: budget)
    }

    /// A generator with nothing cached and no prefix cache, on the cold model.
    func coldGenerator() throws -> Generator {
        Generator(model: try Self.coldModel.get(), prefixCacheBytes: 0)
    }

    @Test func restoredPrefixesGiveTheLogitsOfAColdRunBitForBit() throws {
        let prompts = try Self.prompts.get()
        let (a, b) = (prompts[0], prompts[1])
        // Longer than one 128-token pass, so cold and warm runs split the prompt differently
        // (cold: 128, 128, 128, 66; warm after 200 restored: 128, 122).
        let long = Array((prompts + prompts).joined().prefix(450))
        #expect(long.count == 450)
        let variant = Array(a.dropLast(2)) + Array(b.suffix(2))
        let generator = try makeGenerator()
        _ = try generator.generate(GenerationRequest(prompt: a, maxTokens: 4))
        _ = try generator.generate(GenerationRequest(prompt: Array(long.prefix(200)), maxTokens: 4))
        _ = try generator.generate(GenerationRequest(prompt: b, maxTokens: 4))
        for prompt in [variant, long, b + a.suffix(3), a] {
            let before = generator.prefixCacheStats.restoredTokens
            let warm = try generator.logits(after: prompt)
            #expect(generator.prefixCacheStats.restoredTokens > before, "the tree served part of a \(prompt.count)-token prompt")
            let cold = try coldGenerator().logits(after: prompt)
            #expect(warm.map(\.bitPattern) == cold.map(\.bitPattern), "logits after \(prompt.count) tokens differ from a cold run")
        }
    }

    @Test func interleavedRequestsHitTheTree() throws {
        let prompts = try Self.prompts.get()
        let (a, b) = (prompts[2], prompts[3])
        let generator = try makeGenerator()
        let first = try generator.generate(GenerationRequest(prompt: a, maxTokens: 12, stopTokens: [2]))
        let other = try generator.generate(GenerationRequest(prompt: b, maxTokens: 12, stopTokens: [2]))
        let again = try generator.generate(GenerationRequest(prompt: a, maxTokens: 12, stopTokens: [2]))
        let shared = zip(a, b).prefix { $0 == $1 }.count
        #expect(first.reusedPromptTokens == 0 && other.reusedPromptTokens == shared && shared > 10)
        // A restore leaves the last two tokens to one prefill pass, as a cold run computes them.
        #expect(again.reusedPromptTokens == a.count - 2 && again.tokens == first.tokens)
        let stats = generator.prefixCacheStats
        #expect(stats.lookups == 3 && stats.hits == 2 && stats.reusedTokens == shared + a.count - 2)
        #expect(stats.restoredTokens == a.count - 2 - shared, "the live cache served the shared part, the tree the rest")

        let single = try makeGenerator(budget: 0)
        for prompt in [a, b] { _ = try single.generate(GenerationRequest(prompt: prompt, maxTokens: 12, stopTokens: [2])) }
        let live = try single.generate(GenerationRequest(prompt: a, maxTokens: 12, stopTokens: [2]))
        #expect(live.reusedPromptTokens == shared && live.tokens == first.tokens, "budget 0 reuses only the previous request's prefix")
    }

    @Test func aPromptShorterThanAStoredOneReusesAllButItsLastTwoTokens() throws {
        let prompts = try Self.prompts.get()
        let (a, b) = (prompts[4], prompts[5])
        let shorter = Array(a.prefix(a.count - 6))
        let generator = try makeGenerator()
        _ = try generator.generate(GenerationRequest(prompt: a, maxTokens: 4))
        _ = try generator.generate(GenerationRequest(prompt: b, maxTokens: 4))
        let warm = try generator.generate(GenerationRequest(prompt: shorter, maxTokens: 10))
        #expect(warm.reusedPromptTokens == shorter.count - 2)
        let cold = try coldGenerator().generate(GenerationRequest(prompt: shorter, maxTokens: 10))
        #expect(warm.tokens == cold.tokens)
    }

    @Test func theBudgetIsNeverExceededOnTheModel() throws {
        let prompts = try Self.prompts.get()
        let perToken = PrefixCache(model: try Self.model.get(), budgetBytes: 0).bytesPerToken
        #expect(perToken == 2 * 30 * 192 * 2, "SmolLM2-135M: 30 layers of 3 key/value heads of 64, keys and values as halves")
        let generator = try makeGenerator(budget: 120 * perToken)
        for prompt in prompts + prompts.reversed() {
            _ = try generator.generate(GenerationRequest(prompt: prompt, maxTokens: 2))
            #expect(generator.prefixCacheStats.bytes <= 120 * perToken)
        }
        let stats = generator.prefixCacheStats
        #expect(stats.evictions > 0 && stats.peakBytes > stats.budgetBytes && stats.bytes <= stats.budgetBytes)
    }

    @Test func concurrentCallersAreSerializedAndGetTheirOwnAnswers() throws {
        let prompts = Array(try Self.prompts.get().prefix(6))
        let expected = try prompts.map { try coldGenerator().generate(GenerationRequest(prompt: $0, maxTokens: 8)).tokens }
        let generator = try makeGenerator()
        let results = Locked([[Int32]?](repeating: nil, count: prompts.count * 2))
        DispatchQueue.concurrentPerform(iterations: prompts.count * 2) { i in
            let tokens = try? generator.generate(GenerationRequest(prompt: prompts[i % prompts.count], maxTokens: 8)).tokens
            results.withLock { $0[i] = tokens }
        }
        let answers = results.withLock { $0 }
        #expect(answers.enumerated().allSatisfy { $0.element == expected[$0.offset % prompts.count] })
        #expect(generator.prefixCacheStats.lookups == prompts.count * 2)
    }
}
