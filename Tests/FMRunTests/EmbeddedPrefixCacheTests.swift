import FMCore
import FMEmbedded
import Foundation
import Testing
@testable import FMEngines

/// The embedded engine's prefix cache budget (option, environment, default) and its statistics,
/// which agree with the cached input tokens its responses report.
@Suite struct EmbeddedPrefixCacheTests {
    @Test func theBudgetComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        let environment = ["FMEVAL_PREFIX_CACHE_MB": "64"]
        #expect(try EmbeddedEngine.prefixCacheBytes(options: ["prefixCacheMB": GeneratedContent(0)], environment: environment).get() == 0)
        #expect(try EmbeddedEngine.prefixCacheBytes(options: ["prefixCacheMB": GeneratedContent(8)], environment: [:]).get() == 8 << 20)
        #expect(try EmbeddedEngine.prefixCacheBytes(options: [:], environment: environment).get() == 64 << 20)
        #expect(try EmbeddedEngine.prefixCacheBytes(options: [:], environment: [:]).get() == PrefixCache.defaultBudgetBytes)
        #expect(PrefixCache.defaultBudgetBytes == 256 << 20)
    }

    @Test func badBudgetsNameTheOptionOrTheVariable() {
        guard case .failure(let optionError) = EmbeddedEngine.prefixCacheBytes(options: ["prefixCacheMB": GeneratedContent(-1)], environment: [:]) else {
            Issue.record("a negative budget was accepted")
            return
        }
        let option = optionError.problem
        #expect(option.option == "prefixCacheMB")
        #expect(option.message == "engine option 'prefixCacheMB' of engine 'embedded' must be a whole number of MiB from 0 to 1048576, not -1; use 0 to turn the cache off")
        guard case .failure(let variableError) = EmbeddedEngine.prefixCacheBytes(options: [:], environment: ["FMEVAL_PREFIX_CACHE_MB": "lots"]) else {
            Issue.record("a non-numeric budget was accepted")
            return
        }
        let variable = variableError.problem
        #expect(variable.option == nil)
        #expect(variable.message.hasPrefix("FMEVAL_PREFIX_CACHE_MB must be a whole number of MiB from 0 to 1048576, not 'lots'"))
        let descriptor = EmbeddedEngine.descriptor
        #expect(descriptor.options.map(\.name) == ["model", "prefixCacheMB"])
        #expect(descriptor.check?(["prefixCacheMB": GeneratedContent(2_000_000)]).first?.option == "prefixCacheMB")
        #expect(descriptor.check?(["prefixCacheMB": GeneratedContent(16)]).isEmpty == true)
    }

    @Test func engineStatisticsAgreeWithTheUsageOfItsResponses() throws {
        let engine = try EmbeddedEngine(modelPath: nil) { FileHandle.standardError.write(Data(("[model] " + $0 + "\n").utf8)) }
        var usage = Usage()
        for prompt in ["Say hello.", "Name a colour.", "Say hello."] {
            let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: prompt))]))])
            let request = EngineRequest(transcript: transcript, options: GenerationOptions(maximumResponseTokens: 6))
            usage = usage + (try engine.respond(to: request) { _ in }).usage
        }
        let stats = engine.prefixCacheStats
        #expect(stats.lookups == 3 && stats.promptTokens == usage.inputTokens && stats.reusedTokens == usage.cachedInputTokens)
        #expect(stats.restoredTokens > 0, "the third prompt comes back from the tree, not the KV cache")
        #expect(stats.budgetBytes == PrefixCache.defaultBudgetBytes && stats.bytes > 0)
    }
}
