import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

private func record(_ steps: [ScriptStep], prompt: String, into recorder: CassetteRecorder, configuration: SessionConfiguration) throws -> SessionResponse {
    let engine = try recorder.engine(for: AttemptContext(caseID: "c", caseData: .script(.steps(steps)), attempt: 0))
    return try LanguageModelSession(engine: engine, configuration: configuration).respond(to: prompt)
}

@Test func recordedCallsReplayIdenticallyAndMissesFailClosedWithADiff() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let configuration = SessionConfiguration(instructions: "Be brief.", tools: [try cityTool()])
    let recorder = CassetteRecorder(recording: try EngineRegistry.provider(for: EngineConfiguration(name: "scripted")), to: path)
    let original = try record([.toolCalls([call(city: "Paris")]), .text("Sunny in Paris.")], prompt: "Weather in Paris?",
                              into: recorder, configuration: configuration)
    try recorder.save()

    let provider = try EngineRegistry.provider(for: EngineConfiguration(name: "replay", cassette: path))
    #expect(provider.identity.model == "scripted/script")
    let replayed = LanguageModelSession(engine: try provider.engine(for: AttemptContext(caseID: "c", attempt: 0)),
                                        configuration: configuration)
    let again = try replayed.respond(to: "Weather in Paris?")
    #expect(again.text == original.text)
    #expect(again.toolCalls == original.toolCalls)
    #expect(again.stats.snapshotCount == original.stats.snapshotCount)

    let missed = LanguageModelSession(engine: try provider.engine(for: AttemptContext(caseID: "c", attempt: 0)),
                                      configuration: configuration)
    do {
        _ = try missed.respond(to: "Weather in Beijing?")
        Issue.record("expected a replay miss")
    } catch let miss as ReplayMiss {
        #expect(miss.message.contains("Closest recording"))
        #expect(miss.message.contains("Weather in Paris?"))
        #expect(miss.message.contains("Weather in Beijing?"))
        #expect(miss.message.contains("/transcript"))
    }
}

@Test func replayKeysDependOnEngineIdentityAndOptions() throws {
    let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: "hi"))]))])
    let request = EngineRequest(transcript: transcript)
    var other = request
    other.options.maximumResponseTokens = 5
    let engine = EngineIdentity(name: "embedded", model: "m", modelHash: "abc")
    #expect(Cassette.key(of: request, engine: engine) == Cassette.key(of: request, engine: engine))
    #expect(Cassette.key(of: request, engine: engine) != Cassette.key(of: other, engine: engine))
    #expect(Cassette.key(of: request, engine: engine) != Cassette.key(of: request, engine: EngineIdentity(name: "embedded", model: "m", modelHash: "def")))
    #expect(Cassette.key(of: request, engine: engine).count == 64)
}

@Test func unknownEnginesAndMissingCassettesAreClearErrors() {
    #expect(throws: Fault.self) { try EngineRegistry.provider(for: EngineConfiguration(name: "nope")) }
    do {
        _ = try EngineRegistry.provider(for: EngineConfiguration(name: "replay", cassette: "/nonexistent/c.json"))
        Issue.record("expected a setup error")
    } catch let error as Fault {
        #expect(!error.isInfrastructure)
        #expect(error.message.contains("--record"))
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Test func aCassetteKeepsDecimalsAsTheModelWroteThem() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("cassette-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let configuration = SessionConfiguration(tools: [try cityTool()])
    let recorder = CassetteRecorder(recording: try EngineRegistry.provider(for: EngineConfiguration(name: "scripted")), to: path)
    let arguments = try GeneratedContent(json: #"{"city": "Paris", "days": 1.0, "people": 2}"#)
    let original = try record([.toolCalls([ScriptedToolCall(name: "getCityInfo", arguments: arguments)]), .text("Sunny.")],
                              prompt: "Weather?", into: recorder, configuration: configuration)
    try recorder.save()
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    #expect(saved.contains(#""days": 1.0"#) || saved.contains(#"\"days\": 1.0"#), "\(saved)")

    let provider = try EngineRegistry.provider(for: EngineConfiguration(name: "replay", cassette: path))
    let replayed = LanguageModelSession(engine: try provider.engine(for: AttemptContext(caseID: "c", attempt: 0)),
                                        configuration: configuration)
    let again = try replayed.respond(to: "Weather?")
    let call = try #require(again.toolCalls.first)
    #expect(call.arguments.jsonString == #"{"city":"Paris","days":1.0,"people":2}"#)
    #expect(again.toolCalls == original.toolCalls)
}

@Test func everyRequestFieldIsKeyedOrDeliberatelyLeftOut() throws {
    let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: "hi"))]))])
    var request = EngineRequest(transcript: transcript, guideEnforcement: .device,
                                loopGuards: LoopGuards.defaults(for: .device))
    request.contextBudget = 100
    let fields = Set(Mirror(reflecting: request).children.compactMap(\.label))
    let content = Cassette.canonicalContent(of: request, engine: EngineIdentity(name: "scripted", model: "script"))
    let keyed = Set((content.orderedProperties ?? []).map(\.0)).subtracting(["engine"])
    #expect(keyed.union(Cassette.unkeyedRequestFields) == fields, "key a new EngineRequest field or list it as unkeyed")
    #expect(keyed.isDisjoint(with: Cassette.unkeyedRequestFields))
}
