import Foundation
import Testing
import FMCore
import FMEngines
import FMResults
import FMRun
import FMSuite

/// `reproduce` on the embedded engine with the real model: seeds vary the sampled output, and each
/// seed gives the same output again. Run optimized: `swift test -c release -Xswiftc -enable-testing --filter Embedded`.
@Suite(.serialized)
struct EmbeddedReproduceTests {
    static let provider = Result { try EngineRegistry.provider(for: EngineConfiguration(name: "embedded")) }

    @Test func seedsVaryTheEmbeddedModelsOutputAndEachSeedRepeats() throws {
        let items = try cases("""
        suite: seeds
        options: { maximumResponseTokens: 12 }
        cases:
          - id: story
            prompt: Tell me a one-line story about a cat.
            reproduce: { seeds: 4, temperature: 1.0 }
            expect: { contains: cat }
        """)
        let provider = try Self.provider.get()
        let runner = Runner(options: RunnerOptions(checkDeterminism: true), provider: { _ in provider })
        let result = try #require(try runner.run(items).first)
        let texts = result.attempts.map { $0.text ?? "" }
        #expect(result.attempts.map(\.seed) == [1, 2, 3, 4])
        #expect(Set(texts).count >= 3, "four seeds should sample at least three different answers: \(texts)")
        #expect(result.determinism?.diverged == false, "each seed samples the same answer again: \(result.determinism?.detail ?? "")")
        #expect(result.reproduction?.trials == 4)
    }

    @Test func greedyParaphrasesGiveOneAnswerPerWording() throws {
        let items = try cases("""
        suite: wordings
        options: { maximumResponseTokens: 12 }
        cases:
          - id: capital
            prompt: What is the capital of France?
            reproduce: { paraphrases: [Name the capital city of France., "France's capital is which city?"] }
            expect: { contains: Paris }
        """)
        let provider = try Self.provider.get()
        let result = try #require(try Runner(options: RunnerOptions(), provider: { _ in provider }).run(items).first)
        #expect(result.attempts.map(\.paraphrase) == [0, 1, 2])
        #expect(result.attempts.allSatisfy { $0.seed == nil })
        #expect(Set(result.attempts.map { $0.text ?? "" }).count >= 2, "different wordings give different greedy answers")
    }
}
