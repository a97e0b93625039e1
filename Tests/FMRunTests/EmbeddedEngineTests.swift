import FMCore
import Foundation
import Testing
@testable import FMEngines
import FMGrammar

/// The embedded engine with the real model, fetched into the model store on first use (never skipped).
/// Run optimized: `swift test -c release -Xswiftc -enable-testing --filter Embedded`.
@Suite(.serialized)
struct EmbeddedEngineTests {
    /// One engine over the default model for every test; `ModelStore.defaultModelURL` fetches it when missing.
    static let engine = Result {
        try EmbeddedEngine(modelPath: nil) { FileHandle.standardError.write(Data(("[model] " + $0 + "\n").utf8)) }
    }

    /// The reference schema files in the package (reference/apple-fm-sdk).
    static func referenceSchema(_ name: String) throws -> GenerationSchema {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("reference/apple-fm-sdk")
        return try GenerationSchema(json: String(contentsOf: directory.appendingPathComponent(name + ".json"), encoding: .utf8))
    }

    private func respond(_ prompt: String, schema: GenerationSchema? = nil, tools: [ToolDefinition] = [],
                         options: GenerationOptions = GenerationOptions(maximumResponseTokens: 600),
                         constrained: Bool = true, events: inout [EngineEvent]) throws -> EngineResponse {
        let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: prompt))]))])
        let request = EngineRequest(transcript: transcript, options: options, schema: schema, tools: tools, constrained: constrained)
        var collected: [EngineEvent] = []
        let response = try Self.engine.get().respond(to: request) { collected.append($0) }
        events = collected
        return response
    }

    @Test(arguments: [
        ("age", "How old is a cat that was born 3 years and 2 months ago?"),
        ("cat", "Describe a cat named Tom who is 3 years old. The profile is one short sentence."),
        ("hedgehog", "Describe a hedgehog."),
        ("person", "Describe Ann, a 40-year-old woman with no children."),
        ("newsletter", "Write the title and topic of a shelter newsletter about adopting cats."),
        ("petClub", "Describe a small pet club with one member, Ann (age 40), no cats, no hedgehogs and no other pets."),
        ("shelter", "List the cats at the shelter."),
    ])
    func structuredResponsesSatisfyEachReferenceSchema(name: String, prompt: String) throws {
        let schema = try Self.referenceSchema(name)
        var events: [EngineEvent] = []
        let response = try respond(prompt, schema: schema, events: &events)
        let content = try #require(response.content, "\(name): \(response.text)")
        #expect(SchemaValidator.violations(of: content, against: schema).isEmpty, "\(name): \(content.jsonString)")
        #expect(response.finishReason == .stop)
        let snapshots = events.compactMap { event -> GeneratedContent? in
            if case .partialStructure(let snapshot) = event { return snapshot }
            return nil
        }
        #expect(!snapshots.isEmpty)
        #expect(snapshots.last?.isComplete == true)
        #expect(snapshots.dropLast().allSatisfy { !$0.isComplete })
    }

    @Test func tightCountsBoundsAndEnumsHold() throws {
        let schema = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["mood","scores","tags"],"required":["mood","scores","tags"],
             "properties":{"mood":{"type":"string","enum":["calm","grumpy"]},
              "scores":{"type":"array","items":{"type":"integer","minimum":7,"maximum":9},"minItems":2,"maxItems":2},
              "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]{3}$"},"minItems":1,"maxItems":2}}}
            """)
        var events: [EngineEvent] = []
        let response = try respond("The cat is furious and scores 2 out of 100. Tag it ANGRY-CAT.", schema: schema, events: &events)
        let content = try #require(response.content, "\(response.text)")
        #expect(SchemaValidator.violations(of: content, against: schema).isEmpty, "\(content.jsonString)")
    }

    @Test func requiredToolCallsNameADefinedToolWithValidArguments() throws {
        let tool = ToolDefinition(name: "getCityInfo", description: "Get the weather in a city.", parameters: EmbeddedFormatTests.city)
        var events: [EngineEvent] = []
        let options = GenerationOptions(maximumResponseTokens: 128, toolCallingMode: .required)
        let response = try respond("What's the weather in Beijing?", tools: [tool], options: options, events: &events)
        #expect(response.finishReason == .toolCalls)
        #expect((1...EmbeddedEngine.maximumParallelToolCalls).contains(response.toolCalls.count))
        for call in response.toolCalls {
            #expect(call.name == "getCityInfo")
            #expect(SchemaValidator.violations(of: call.arguments, against: EmbeddedFormatTests.city).isEmpty, "\(call.arguments.jsonString)")
        }
        #expect(!events.contains { if case .partialStructure = $0 { return true } else { return false } })
        #expect(!events.contains { if case .textDelta = $0 { return true } else { return false } })
    }

    @Test func twoCitiesGetTwoCallsInOneTurnUnderTheGrammar() throws {
        let schema = try GenerationSchema(json: """
            {"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"x-order":["city"],"additionalProperties":false}
            """)
        let tool = ToolDefinition(name: "getWeather", description: "Get the current weather in one city.", parameters: schema)
        let transcript = Transcript(entries: [
            .instructions(.init(id: "i", segments: [.text(.init(id: "s0", content: "You are a weather assistant. Call getWeather once for each city the user names."))],
                                toolDefinitions: [tool])),
            .prompt(.init(id: "p", segments: [.text(.init(id: "s", content: "What's the weather in Vienna and Berlin?"))])),
        ])
        let request = EngineRequest(transcript: transcript, options: GenerationOptions(maximumResponseTokens: 96, toolCallingMode: .required),
                                    tools: [tool])
        let response = try Self.engine.get().respond(to: request) { _ in }
        #expect(response.finishReason == .toolCalls)
        #expect(response.toolCalls.map(\.name) == ["getWeather", "getWeather"])
        #expect(response.toolCalls.map { $0.arguments["city"]?.stringValue } == ["Vienna", "Berlin"])
        #expect(response.toolCalls.map(\.id) == ["call_1", "call_2"])
    }

    @Test func aRequiredCallCutByTheTokenLimitIsTruncatedText() throws {
        let tool = ToolDefinition(name: "getCityInfo", description: "Get the weather in a city.", parameters: EmbeddedFormatTests.city)
        for constrained in [true, false] {
            var events: [EngineEvent] = []
            let options = GenerationOptions(maximumResponseTokens: 6, toolCallingMode: .required)
            let response = try respond("What's the weather in Paris?", tools: [tool], options: options, constrained: constrained, events: &events)
            #expect(response.finishReason == .length)
            #expect(response.toolCalls.isEmpty, "a cut call is not a call of a tool named \"\"")
            #expect(response.text.hasPrefix("<tool_call>"), "\(response.text)")
            #expect(response.usage.outputTokens == 6)
        }
    }

    @Test func usageCountsRealTokensAndTheReusedPrefix() throws {
        var events: [EngineEvent] = []
        let first = try respond("Say hello.", options: GenerationOptions(maximumResponseTokens: 8), events: &events)
        let second = try respond("Say hello.", options: GenerationOptions(maximumResponseTokens: 8), events: &events)
        let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: "Say hello."))]))])
        let count = try Self.engine.get().promptTokenCount(for: EngineRequest(transcript: transcript))
        #expect(first.usage.inputTokens == count)
        // A repeat reuses all but its last two tokens, which run together as in a cold run's last pass.
        #expect(second.usage.cachedInputTokens == count.map { $0 - 2 })
        #expect((1...8).contains(second.usage.outputTokens))
        #expect(first.text == second.text)
    }

    @Test func timingsSplitOutTheGrammarOnlyForConstrainedCalls() throws {
        var events: [EngineEvent] = []
        let schema = try GenerationSchema(json: #"{"type": "string", "enum": ["yes", "no"], "title": "Answer"}"#)
        let constrained = try respond("Is the sky blue?", schema: schema, events: &events)
        let timings = try #require(constrained.timings)
        let masks = try #require(timings.maskMs, "a constrained call measures its masks")
        #expect(masks > 0 && masks <= timings.prefillMs + timings.decodeMs)
        #expect(try #require(timings.grammarMs) >= 0)
        #expect(timings.decodeTokens == constrained.usage.outputTokens)
        // The answer's closing quote and the end token are the only ones the grammar allows there.
        #expect(try #require(timings.forcedTokens) >= 1 && timings.draftTokens != nil)
        let free = try respond("Say hello.", options: GenerationOptions(maximumResponseTokens: 4), events: &events)
        #expect(free.timings?.maskMs == nil && free.timings?.grammarMs == nil && free.timings?.forcedTokens == nil)
        #expect(free.timings?.draftTokens != nil)
        #expect((free.timings?.decodeMs ?? 0) > 0)
    }

    @Test func aCutStructureIsLeftUnparsed() throws {
        var events: [EngineEvent] = []
        let response = try respond("Describe a cat.", schema: try Self.referenceSchema("cat"),
                                   options: GenerationOptions(maximumResponseTokens: 6), events: &events)
        #expect(response.finishReason == .length)
        #expect(response.content == nil)
        #expect(response.usage.outputTokens == 6)
    }

    @Test func unsupportedPatternsAreRejectedBeforeGenerating() throws {
        #expect(throws: SchemaError.self) { try GenerationSchema(json: #"{"type":"string","pattern":"(?=a)b"}"#) }
    }
}

/// Masks over the model's real vocabulary (49 152 byte-level BPE tokens): on random walks, every
/// allowed token keeps a valid prefix and a sample of the forbidden ones would break it.
@Suite
struct EmbeddedVocabularyMaskTests {
    @Test(arguments: ["cat", "person", "hedgehog"])
    func masksAreSoundAndTightOnTheRealVocabulary(name: String) throws {
        let engine = try EmbeddedEngineTests.engine.get()
        let grammar = try Grammar.json(schema: EmbeddedEngineTests.referenceSchema(name))
        let table = TokenTable(grammar: grammar, vocabulary: engine.vocabulary)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3 {
            let matcher = TokenMatcher(table: table)
            for _ in 0..<60 where !matcher.isTerminated {
                let allowed = matcher.allowedTokens()
                let allowedSet = Set(allowed)
                try #require(!allowed.isEmpty)
                for id in allowed.shuffled(using: &random).prefix(40) where !engine.vocabulary.endTokenIDs.contains(id) {
                    #expect(grammar.acceptsPrefix(matcher.acceptedBytes + engine.vocabulary.tokens[id]), "token \(id)")
                }
                for _ in 0..<40 {
                    let id = Int.random(in: 0..<engine.vocabulary.count, using: &random)
                    guard !allowedSet.contains(id), !engine.vocabulary.specialTokenIDs.contains(id),
                          !engine.vocabulary.endTokenIDs.contains(id) else { continue }
                    #expect(!grammar.acceptsPrefix(matcher.acceptedBytes + engine.vocabulary.tokens[id]), "token \(id)")
                }
                let structural = allowed.filter { engine.vocabulary.tokens[$0].first.map { $0 < 0x30 } ?? true }
                let pick = (structural.isEmpty || Bool.random(using: &random) ? allowed : structural).randomElement(using: &random)!
                #expect(matcher.accept(pick))
            }
        }
    }
}
