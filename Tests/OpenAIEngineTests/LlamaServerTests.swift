import FMCore
import FMSession
import Foundation
import Testing
@testable import FMEngines

/// One prompt of reference/smollm2/greedy-public.json.
private struct GreedyReference: Decodable {
    let user: String
    let system: String
    let greedyTokens: [Int]
}

/// The openai engine against a real llama-server (see LlamaServer): skipped unless
/// `FMEVAL_LLAMA_SERVER` or `CI` is set.
@Suite(.serialized, .enabled(if: LlamaServer.isWanted)) struct LlamaServerTests {
    func engine(_ server: LlamaServer, stream: Bool = false) throws -> OpenAIEngine {
        var settings = OpenAIFixtures.settings(server.baseURL, stream: stream, timeout: 600)
        settings.model = "SmolLM2-135M-Instruct"
        return try OpenAIEngine(settings: settings, environment: [:])
    }

    @Test func aPlainPromptThroughASessionStreamedAndNot() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let options = GenerationOptions(maximumResponseTokens: 24)
        let plain = LanguageModelSession(engine: try engine(server), configuration: SessionConfiguration(options: options))
        let answer = try plain.respond(to: "What is the capital of France?")
        #expect(!answer.text.isEmpty)
        #expect(answer.stats.usage.inputTokens > 10)
        #expect(answer.stats.usage.outputTokens > 0)
        let streamed = LanguageModelSession(engine: try engine(server, stream: true), configuration: SessionConfiguration(options: options))
        var deltas: [String] = []
        let same = try streamed.respond(to: "What is the capital of France?") { event in
            if case .textDelta(let text) = event { deltas.append(text) }
        }
        #expect(deltas.count > 1)
        #expect(deltas.joined() == same.text)
        #expect(same.text == answer.text)
        #expect(same.stats.usage.outputTokens == answer.stats.usage.outputTokens)
    }

    /// Every complete response satisfies its schema; a response cut by `max_tokens` (llama-server's
    /// grammar does not bound string lengths, so a small greedy model can loop inside a string) must
    /// still be a valid prefix, and at least half must complete (measured greedy: age, cat, hedgehog
    /// complete; newsletter, petClub, shelter cut at 400 tokens). `person`'s root recursion is sent
    /// through a `$defs` entry (llama-server rejects `"$ref": "#"`).
    @Test func guidedGenerationOnApplesReferenceSchemasHasNoViolations() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let engine = try engine(server)
        var complete: [String] = []
        var cut: [String] = []
        for name in OpenAIFixtures.appleSchemaNames {
            let schema = try OpenAIFixtures.appleSchema(name)
            var request = EngineRequest(transcript: OpenAIFixtures.transcript(instructions: "You write realistic example data.",
                                                                              prompt: "Give one example \(schema.root.title ?? name)."),
                                        schema: schema)
            request.options.maximumResponseTokens = 400
            let response = try engine.respond(to: request) { _ in }
            if response.finishReason == .length {
                #expect(GeneratedContent.partial(json: response.text) != nil, "\(name): \(response.text)")
                cut.append(name)
                continue
            }
            let content = try #require(response.content, "\(name): \(response.text)")
            #expect(SchemaValidator.violations(of: content, against: schema) == [], "\(name): \(content.jsonString)")
            complete.append(name)
        }
        print("openai engine on llama-server: complete \(complete), cut by max_tokens \(cut)")
        #expect(complete.count >= 3, "complete: \(complete), cut: \(cut)")
    }

    @Test func usageCountsAndTheRepeatedPromptIsServedFromCache() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let engine = try engine(server)
        var request = EngineRequest(transcript: OpenAIFixtures.transcript(instructions: "You are terse.", prompt: "Name three colors."))
        request.options.maximumResponseTokens = 8
        let first = try engine.respond(to: request) { _ in }
        let second = try engine.respond(to: request) { _ in }
        #expect(first.usage.inputTokens > 10)
        #expect(first.usage.outputTokens > 0)
        #expect(second.usage.inputTokens == first.usage.inputTokens)
        #expect(second.usage.cachedInputTokens > 0)
        #expect(second.text == first.text)
        #expect(engine.lastCallMetrics?.serverModel != nil)
    }

    @Test func aPromptOverTheServersContextIsContextSizeExceeded() throws {
        let server = try LlamaServer(contextSize: 128)
        defer { server.stop() }
        let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 60)
        let request = EngineRequest(transcript: OpenAIFixtures.transcript(prompt: long))
        #expect { _ = try engine(server).respond(to: request) { _ in } } throws: {
            ($0 as? LanguageModelError)?.caseName == "contextSizeExceeded"
        }
    }

    @Test func greedyTextEqualsTheEmbeddedEngineOnTheReferencePrompts() throws {
        let server = try LlamaServer()
        defer { server.stop() }
        let openai = try engine(server)
        let embedded = try EmbeddedEngine(modelPath: nil)
        struct File: Decodable { let cases: [GreedyReference] }
        let url = OpenAIFixtures.repositoryRoot.appendingPathComponent("reference/smollm2/greedy-public.json")
        let cases = try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
        #expect(!cases.isEmpty)
        // Texts are compared where llama.cpp sums as the engine does (an AVX-512 build); elsewhere its own
        // arithmetic gives other tokens (measured with an AVX2 build: 6 of 8 prompts differ), so only the
        // tokenization is compared and the agreement printed.
        let sameArithmetic = try LlamaServer.sumsInSixteenLanes()
        var overheads: [Double] = []
        var agreeing = 0
        for reference in cases {
            var request = EngineRequest(transcript: OpenAIFixtures.transcript(instructions: reference.system, prompt: reference.user))
            request.options.maximumResponseTokens = reference.greedyTokens.count
            let served = try openai.respond(to: request) { _ in }
            let local = try embedded.respond(to: request) { _ in }
            if sameArithmetic { #expect(served.text == local.text, "prompt: \(reference.user)") }
            agreeing += served.text == local.text ? 1 : 0
            #expect(served.usage.inputTokens == local.usage.inputTokens, "prompt: \(reference.user)")
            overheads.append(openai.lastCallMetrics?.overheadMs ?? 0)
        }
        let features = try LlamaServer.cpuFeatures.get().sorted().joined(separator: " ")
        print("llama-server (CPU: \(features)) gives the embedded engine's greedy text on \(agreeing) of "
              + "\(cases.count) prompts" + (sameArithmetic ? "" : "; not compared: it sums in fewer than 16 lanes"))
        let median = overheads.sorted()[overheads.count / 2]
        print("openai engine: harness overhead per request (outside the HTTP round trip), median of \(overheads.count): "
              + String(format: "%.3f ms", median))
        #expect(median < 50)
    }
}
