import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// The session is as strict as the device: the response shares the context window, the transcript can be
/// edited between requests (and not during one), parts are counted, and errors carry the device's names.

@Test func theResponseSharesTheContextWindow() throws {
    let long = String(repeating: "word ", count: 4000)
    let session = scriptedSession([.text(long)], configuration: SessionConfiguration(contextSize: 20))
    do {
        _ = try session.respond(to: "Tell me")
        Issue.record("a 5,000-token answer under a 20-token window must not succeed")
    } catch let error as LanguageModelError {
        #expect(error.caseName == "contextSizeExceeded")
        #expect(error.description.contains("takes 2 of contextSize 20 tokens"), "\(error)")
        #expect(error.description.contains("ran past the 18 left"), "\(error)")
        #expect(error.failureClass == .modelBehavior)
    }
    #expect(session.lastTurnStats.engineCalls == 1, "the prompt fitted, so the engine ran")
    let cut = try #require(session.lastTurnStats.lastResponseText, "the cut text is kept for the report")
    #expect(!cut.isEmpty && cut.utf8.count <= 18 * TokenEstimate.bytesPerToken)
}

@Test func maximumResponseTokensBelowTheWindowStillTruncates() throws {
    let long = String(repeating: "word ", count: 100)
    let truncating = scriptedSession([.text(long)], configuration: SessionConfiguration(
        options: GenerationOptions(maximumResponseTokens: 5), contextSize: 20))
    let response = try truncating.respond(to: "Tell me")
    #expect(response.stats.truncated && response.stats.usage.outputTokens == 5)

    let overWindow = scriptedSession([.text(long)], configuration: SessionConfiguration(
        options: GenerationOptions(maximumResponseTokens: 50), contextSize: 20))
    #expect(caseName(of: { _ = try overWindow.respond(to: "Tell me") }) == "contextSizeExceeded")

    let fits = scriptedSession([.text("Short answer.")], configuration: SessionConfiguration(contextSize: 20))
    #expect(try fits.respond(to: "Tell me").text == "Short answer.")
}

@Test func requestsCarryTheWindowBudgetOutsideTheReplayKey() throws {
    var request = EngineRequest(transcript: Transcript(), options: GenerationOptions(maximumResponseTokens: 100))
    #expect(request.responseTokenLimit == 100 && !request.isWindowLimited)
    let key = Cassette.key(of: request, engine: EngineIdentity(name: "x", model: "y"))
    request.contextBudget = 30
    #expect(request.responseTokenLimit == 30 && request.isWindowLimited)
    #expect(Cassette.key(of: request, engine: EngineIdentity(name: "x", model: "y")) == key)
    request.contextBudget = 100
    #expect(!request.isWindowLimited, "at the same limit, maximumResponseTokens is what stops the response")
    request.options.maximumResponseTokens = nil
    #expect(request.responseTokenLimit == 100 && request.isWindowLimited)
}

@Test func theTranscriptCanBeEditedBetweenRequests() throws {
    let session = scriptedSession([.text("First."), .text("Second.")], configuration: SessionConfiguration(instructions: "Be brief."))
    _ = try session.respond(to: "one")
    session.transcript.history = []
    #expect(entryKinds(session.transcript) == ["instructions"])
    _ = try session.respond(to: "two")
    #expect(entryKinds(session.transcript) == ["instructions", "prompt", "response"])
}

@Test func mutatingTheTranscriptDuringARequestThrowsOnThatRequest() throws {
    let session = scriptedSession([.text("A long enough answer."), .text("again")], configuration: SessionConfiguration(instructions: "Be brief."))
    do {
        _ = try session.respond(to: "one") { _ in session.transcript.history = [] }
        Issue.record("the mutation must surface on the in-flight request")
    } catch let error as LanguageModelSessionError {
        #expect(error == .transcriptMutationWhileResponding)
    }
    #expect(entryKinds(session.transcript) == ["instructions"], "the mutation itself took effect; no response was appended")
    #expect(try session.respond(to: "two").text == "again", "the next request starts clean")
}

@Test func transcriptEditsDropKindsThenKeepTheLast() throws {
    let segment = { (id: String) in [Transcript.Segment.text(.init(id: id, content: id))] }
    let transcript = Transcript(entries: [
        .instructions(.init(id: "i", segments: segment("i"))), .prompt(.init(id: "p1", segments: segment("p1"))),
        .toolCalls(.init(id: "c", calls: [])), .toolOutput(.init(id: "o", toolName: "t", toolCallID: "c", segments: segment("o"))),
        .response(.init(id: "r1", segments: segment("r1"))), .prompt(.init(id: "p2", segments: segment("p2"))),
        .response(.init(id: "r2", segments: segment("r2"))),
    ])
    #expect(TranscriptEdit(drop: [.toolCalls, .toolOutput]).applied(to: transcript).entries.map(\.id) == ["i", "p1", "r1", "p2", "r2"])
    #expect(TranscriptEdit(keepLast: 2).applied(to: transcript).entries.map(\.id) == ["i", "p2", "r2"])
    #expect(TranscriptEdit(drop: [.response], keepLast: 1).applied(to: transcript).entries.map(\.id) == ["i", "p2"])
    #expect(TranscriptEdit(keepLast: 0).applied(to: transcript).entries.map(\.id) == ["i"])
    let bare = Transcript(entries: [.prompt(.init(id: "p", segments: segment("p")))])
    #expect(TranscriptEdit(keepLast: 0).applied(to: bare).entries.isEmpty, "without instructions the whole transcript is history")
}

@Test func theDriverEditsHistoryBeforeATurnSoItFitsTheWindow() throws {
    let long = String(repeating: "story ", count: 24)
    let script = EngineScript.turns([[.text(long)], [.text("Short.")]])
    var plan = SessionPlan(configuration: SessionConfiguration(contextSize: 40), turns: ["Tell a story.", "Now a summary."])
    #expect(caseName(of: { _ = try EngineSessionDriver(engine: ScriptedEngine(script: script)).run(plan) }) == "contextSizeExceeded",
            "without the edit the second turn does not fit")
    plan.edits = [1: TranscriptEdit(keepLast: 0)]
    let record = try EngineSessionDriver(engine: ScriptedEngine(script: script)).run(plan)
    #expect(record.text == "Short.")
    #expect(entryKinds(record.transcript) == ["prompt", "response"])
}

@Test func partsAreCountedLikeTokenCountFor() throws {
    let tool = try cityTool()
    let schema = try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "city", node: .init(.string(.init())))]))))
    let plan = SessionPlan(configuration: SessionConfiguration(instructions: "You are a travel guide.", tools: [tool], schema: schema),
                           turns: ["Where?", "Why there?"])
    let counts = try PromptTokenCounts(plan: plan, engine: ScriptedEngine(script: .steps([])))
    #expect(counts.estimated)
    #expect(counts.instructions == TokenEstimate.count("You are a travel guide."))
    #expect(counts.tools == TokenEstimate.count(GeneratedContent([tool.definition.content]).jsonString))
    #expect(counts.schema == TokenEstimate.count(schema.content.jsonString))
    #expect(counts.prompt == TokenEstimate.count("Where?") + TokenEstimate.count("Why there?"))
    let record = try EngineSessionDriver(engine: ScriptedEngine(script: .turns([[.structure(["city": "Oslo"])], [.structure(["city": "Oslo"])]])))
        .run(SessionPlan(configuration: SessionConfiguration(schema: schema), turns: ["Where?", "Why there?"]))
    #expect(record.tokenCounts?.instructions == 0 && record.tokenCounts?.tools == 0 && record.tokenCounts?.schema == counts.schema)
}

@Test func aBrokenStructureCarriesItsRawContent() throws {
    let schema = try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "name", node: .init(.string(.init())))]))))
    let session = scriptedSession([.text("{\"name\": ")], configuration: SessionConfiguration(schema: schema, constrained: false))
    do {
        _ = try session.respond(to: "q")
        Issue.record("a cut structure must not parse")
    } catch let error as GeneratedContent.ParsingError {
        #expect(error.rawContent == "{\"name\": ")
        #expect(error.failureClass == .modelBehavior)
    }
}

@Test func aFailingToolSurfacesAsToolCallError() throws {
    let session = scriptedSession([.toolCalls([call("noSuchTool", city: "Oslo")])], configuration: SessionConfiguration(tools: [try cityTool()]))
    do {
        _ = try session.respond(to: "q")
        Issue.record("an unknown tool must fail the call")
    } catch let error as ToolCallError {
        #expect(error.tool == "noSuchTool" && error.domain == "LanguageModelSession.ToolCallError" && error.caseName == "toolCallError")
        #expect(error.failureClass == .modelBehavior, "the model called a tool the session never offered")
    }
}

@Test func theModelsOwnOutcomesAreModelBehaviour() {
    for name in LanguageModelError.caseNames {
        let error = LanguageModelError(caseName: name, debugDescription: "")!
        let expected: FailureClass = ["refusal", "guardrailViolation", "contextSizeExceeded"].contains(name) ? .modelBehavior
            : ["rateLimited", "timeout"].contains(name) ? .retryableInfrastructure : .infrastructure
        #expect(error.failureClass == expected, "\(name)")
    }
}

/// The case name of the classified error `body` throws, nil when it does not throw one.
private func caseName(of body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return (error as? ClassifiedError)?.caseName
    }
}
