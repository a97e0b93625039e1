import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

@Test func instructionsAreEntryZeroWithToolDefinitions() throws {
    let session = scriptedSession([.text("Hello!")], configuration: SessionConfiguration(instructions: "Be brief.", tools: [try cityTool()]))
    let response = try session.respond(to: "Hi")
    #expect(response.text == "Hello!")
    #expect(entryKinds(session.transcript) == ["instructions", "prompt", "response"])
    guard case .instructions(let instructions) = session.transcript.entries[0] else { Issue.record("entry 0 is not instructions"); return }
    #expect(instructions.segments.map(\.text) == ["Be brief."])
    #expect(instructions.toolDefinitions.map(\.name) == ["getCityInfo"])
}

@Test func toolLoopAppendsCallsAndOutputsThenContinues() throws {
    let session = scriptedSession([.toolCalls([call(city: "Paris")]), .text("It is sunny in Paris.")],
                                  configuration: SessionConfiguration(tools: [try cityTool()]))
    let response = try session.respond(to: "Weather in Paris?")
    #expect(response.text == "It is sunny in Paris.")
    #expect(response.toolCalls.map(\.name) == ["getCityInfo"])
    #expect(response.stats.engineCalls == 2)
    #expect(response.stats.toolCalls == 1)
    #expect(entryKinds(session.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    let outputs = StructuredTranscript(session.transcript).toolOutputs
    #expect(outputs.map(\.text) == ["Sunny, 21°C."])
}

@Test func perArgumentOutputsPickTheMatchingRule() throws {
    let rules = ToolOutput.byArguments([
        ToolOutputRule(when: ["city": "Paris"], output: .text("Paris: 18°C")),
        ToolOutputRule(when: nil, output: .text("unknown city")),
    ])
    let session = scriptedSession([.toolCalls([call(city: "Paris"), call(city: "Oslo")]), .text("ok")],
                                  configuration: SessionConfiguration(tools: [try cityTool(output: rules)]))
    _ = try session.respond(to: "two cities")
    #expect(StructuredTranscript(session.transcript).toolOutputs.map(\.text) == ["Paris: 18°C", "unknown city"])
}

/// A structured tool output is appended as a structure segment (Apple's shape), not as its JSON text;
/// the model is shown its JSON.
@Test func aStructuredOutputIsAStructureSegment() throws {
    let forecast: GeneratedContent = ["city": "Paris", "celsius": 18]
    let session = scriptedSession([.toolCalls([call(city: "Paris")]), .text("ok")],
                                  configuration: SessionConfiguration(tools: [try cityTool(output: .structure(forecast))]))
    _ = try session.respond(to: "Paris?")
    let outputs = session.transcript.entries.compactMap { entry -> Transcript.ToolOutput? in
        if case .toolOutput(let output) = entry { return output }
        return nil
    }
    guard case .structure(let segment)? = outputs.first?.segments.first else {
        Issue.record("expected a structure segment, got \(outputs)")
        return
    }
    #expect(segment.content == forecast)
    #expect(StructuredTranscript(session.transcript).toolOutputs.map(\.text) == [forecast.jsonString])
}

@Test func unmatchedArgumentsAndUnknownToolsFailTheCall() throws {
    let rules = ToolOutput.byArguments([ToolOutputRule(when: ["city": "Paris"], output: .text("x"))])
    let session = scriptedSession([.toolCalls([call(city: "Rome")])], configuration: SessionConfiguration(tools: [try cityTool(output: rules)]))
    let unmatched = #expect(throws: ToolCallError.self) { try session.respond(to: "Rome?") }
    #expect(unmatched?.failureClass == .infrastructure, "a fixture without a rule for the arguments is the suite's fault")
    let unknown = scriptedSession([.toolCalls([call("lookUp", city: "Rome")])], configuration: SessionConfiguration(tools: [try cityTool()]))
    do {
        _ = try unknown.respond(to: "Rome?")
        Issue.record("expected a tool failure")
    } catch let error as ToolCallError {
        #expect(error.description.contains("a tool the session does not offer"))
        #expect(error.description.contains("getCityInfo"))
        #expect(error.failureClass == .modelBehavior, "calling a tool that was never offered is the model's failure")
    }
}

@Test func loopGuardStopsAModelThatKeepsCallingTools() throws {
    let steps = Array(repeating: ScriptStep.toolCalls([call(city: "Paris")]), count: 10)
    let session = scriptedSession(steps, configuration: SessionConfiguration(tools: [try cityTool()], maxToolCalls: 3))
    #expect(throws: SessionError.toolCallLimitExceeded(limit: 3, lastTool: "getCityInfo")) { try session.respond(to: "loop") }
    #expect(session.lastTurnStats.engineCalls == 4)
    #expect(session.lastTurnStats.toolCalls == 3)
    #expect(session.lastTurnStats.snapshotCount == 0)
}

@Test func toolCallingModeIsEnforced() throws {
    let tools = [try cityTool()]
    var disallowed = SessionConfiguration(tools: tools)
    disallowed.options.toolCallingMode = .disallowed
    let first = scriptedSession([.toolCalls([call(city: "Paris")]), .text("x")], configuration: disallowed)
    #expect(throws: SessionError.self) { try first.respond(to: "q") }

    var required = SessionConfiguration(tools: tools)
    required.options.toolCallingMode = .required
    let second = scriptedSession([.text("no tools")], configuration: required)
    #expect(throws: SessionError.self) { try second.respond(to: "q") }
    // `required` holds on every model turn, as on the device: a text answer after a call breaks it too.
    let third = scriptedSession([.toolCalls([call(city: "Paris")]), .text("done")], configuration: required)
    #expect(throws: SessionError.self) { try third.respond(to: "q") }
}

@Test func contextOverflowThrowsBeforeGenerating() throws {
    let session = scriptedSession([.text("never")], configuration: SessionConfiguration(instructions: String(repeating: "word ", count: 100), contextSize: 50))
    #expect(throws: LanguageModelError.self) { try session.respond(to: "hi") }
    #expect(session.lastTurnStats.engineCalls == 0)
    do {
        _ = try session.respond(to: "hi")
    } catch let error as LanguageModelError {
        #expect(error.caseName == "contextSizeExceeded")
        #expect(error.description.contains("contextSize is 50"))
    }
}

@Test func truncationFlagsTextAndBreaksStructures() throws {
    var options = GenerationOptions()
    options.maximumResponseTokens = 3
    let text = scriptedSession([.text("This answer is much longer than three tokens.")], configuration: SessionConfiguration(options: options))
    let response = try text.respond(to: "q")
    #expect(response.stats.truncated)
    #expect(response.text.utf8.count <= 12)

    let schema = try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "name", node: .init(.string(.init())))]))))
    let structured = scriptedSession([.structure(["name": "A very long name indeed"])],
                                     configuration: SessionConfiguration(options: options, schema: schema))
    #expect(throws: GeneratedContent.ParsingError.self) { try structured.respond(to: "q") }
    #expect(structured.lastTurnStats.truncated)
}

@Test func snapshotsAreCountedAndToolOnlyCallsAddNone() throws {
    let schema = try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "city", node: .init(.string(.init())))]))))
    let session = scriptedSession([.structure(["city": "Paris"])], configuration: SessionConfiguration(schema: schema))
    var partials: [GeneratedContent] = []
    let response = try session.respond(to: "q") { event in
        if case .partialStructure(let content) = event { partials.append(content) }
    }
    #expect(response.content == ["city": "Paris"])
    #expect(response.stats.snapshotCount == partials.count)
    #expect(partials.count > 1)
    #expect(partials.last?.isComplete == true)

    let toolOnly = scriptedSession([.toolCalls([call(city: "Paris")]), .text("")], configuration: SessionConfiguration(tools: [try cityTool()]))
    let answer = try toolOnly.respond(to: "q")
    #expect(answer.stats.snapshotCount == 0)
    #expect(answer.stats.engineCalls == 2)
}

@Test func secondConcurrentRequestThrowsConcurrentRequests() throws {
    let engine = BlockingEngine()
    let session = LanguageModelSession(engine: engine, configuration: SessionConfiguration())
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        _ = try? session.respond(to: "first")
        finished.signal()
    }
    engine.entered.wait()
    #expect(throws: LanguageModelSessionError.concurrentRequests) { try session.respond(to: "second") }
    engine.release.signal()
    finished.wait()
    #expect(!session.isResponding)
}

@Test func missingCapabilityIsUnsupportedCapability() throws {
    let schema = try GenerationSchema(root: .init(.string(.init())))
    let session = LanguageModelSession(engine: BlockingEngine(), configuration: SessionConfiguration(schema: schema))
    do {
        _ = try session.respond(to: "q")
        Issue.record("expected unsupportedCapability")
    } catch let error as LanguageModelError {
        #expect(error.caseName == "unsupportedCapability")
        #expect(error.description.contains("guidedGeneration"))
    }
}

@Test func multiTurnKeepsTheTranscript() throws {
    let session = LanguageModelSession(engine: ScriptedEngine(script: .turns([[.text("one")], [.text("two")]])),
                                       configuration: SessionConfiguration(instructions: "x"))
    #expect(try session.respond(to: "first").text == "one")
    #expect(try session.respond(to: "second").text == "two")
    #expect(entryKinds(session.transcript) == ["instructions", "prompt", "response", "prompt", "response"])
}
