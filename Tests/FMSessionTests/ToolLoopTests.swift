import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// The tool loop's device semantics: `required` on every turn, parallel calls in one turn, cut calls.
struct ToolLoopTests {
    /// A scripted engine that also records the tool-calling mode of every request it gets.
    final class ModeRecordingEngine: LanguageModelEngine {
        let scripted: ScriptedEngine
        var modes: [GenerationOptions.ToolCallingMode] = []
        var identity: EngineIdentity { scripted.identity }
        var capabilities: EngineCapabilities { scripted.capabilities }

        init(_ steps: [ScriptStep]) { scripted = ScriptedEngine(script: .steps(steps)) }

        func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
            modes.append(request.toolCallingMode)
            return try scripted.respond(to: request, onEvent: onEvent)
        }
    }

    private func configuration(_ mode: GenerationOptions.ToolCallingMode, maxToolCalls: Int = 8,
                               maximumResponseTokens: Int? = nil) throws -> SessionConfiguration {
        var configuration = SessionConfiguration(tools: [try cityTool()], maxToolCalls: maxToolCalls)
        configuration.options.toolCallingMode = mode
        configuration.options.maximumResponseTokens = maximumResponseTokens
        return configuration
    }

    /// Arguments that are not a JSON object (an OpenAI-style server's unparsable arguments string is kept
    /// as one string) are the model's malformed call: the tool is not run, and the attempt fails as the
    /// model's failure with the call in the transcript.
    @Test func aToolIsNotCalledWithArgumentsThatAreNotJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-args-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("called").path
        let tool = try cityTool(output: .command(ToolCommand(argv: ["sh", "-c", "touch '\(marker)'; echo ran"], timeoutSeconds: 10)))
        var configuration = SessionConfiguration(tools: [tool])
        configuration.commands = CommandPolicy(pass: ["PATH"])
        let malformed = ScriptedToolCall(name: "getCityInfo", arguments: GeneratedContent("{city: Paris"))
        let session = scriptedSession([.toolCalls([malformed]), .text("done")], configuration: configuration)
        do {
            _ = try session.respond(to: "q")
            Issue.record("a call with arguments that are not JSON must not succeed")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.failureClass == .modelBehavior)
            #expect(error.message.contains("the model called tool 'getCityInfo' with arguments that are not a JSON object"))
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "the tool ran")
        #expect(entryKinds(session.transcript).contains("toolCalls"), "the malformed call is in the transcript")
    }

    @Test func requiredStaysRequiredOnEveryModelTurn() throws {
        let engine = ModeRecordingEngine([.toolCalls([call(city: "Paris")]), .toolCalls([call(city: "Oslo")]), .text("done")])
        let session = LanguageModelSession(engine: engine, configuration: try configuration(.required))
        do {
            _ = try session.respond(to: "q")
            Issue.record("a text answer under required must fail")
        } catch let error as SessionError {
            #expect(error.caseName == "toolCallingModeViolation")
            #expect(error.failureClass == .modelBehavior)
        }
        #expect(engine.modes == [.required, .required, .required])
    }

    @Test func theLoopGuardEndsARequiredLoopSayingTheDeviceWouldLoop() throws {
        let steps = Array(repeating: ScriptStep.toolCalls([call(city: "Paris")]), count: 10)
        let session = scriptedSession(steps, configuration: try configuration(.required, maxToolCalls: 3))
        do {
            _ = try session.respond(to: "q")
            Issue.record("the loop guard must stop a required loop")
        } catch let error as SessionError {
            #expect(error == .toolCallLimitExceeded(limit: 3, lastTool: "getCityInfo", underRequiredMode: true))
            #expect(error.caseName == "toolCallLimitExceeded")
            #expect(error.failureClass == .modelBehavior)
            #expect(error.description.contains("On the device this session would have looped without end"))
        }
        #expect(session.lastTurnStats.toolCalls == 3)
        let allowed = scriptedSession(steps, configuration: try configuration(.allowed, maxToolCalls: 3))
        #expect(throws: SessionError.toolCallLimitExceeded(limit: 3, lastTool: "getCityInfo")) { try allowed.respond(to: "q") }
    }

    @Test func parallelCallsAreOneEntryWithAnOutputPerCallInOrder() throws {
        let session = scriptedSession([.toolCalls([call(city: "Vienna"), call(city: "Berlin")]), .text("Both sunny.")],
                                      configuration: try configuration(.allowed))
        let response = try session.respond(to: "Weather in Vienna and Berlin?")
        #expect(response.toolCalls.map(\.arguments) == [["city": "Vienna"], ["city": "Berlin"]])
        #expect(response.stats.engineCalls == 2)
        #expect(response.stats.toolCalls == 2)
        #expect(entryKinds(session.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "toolOutput", "response"])
        guard case .toolCalls(let entry) = session.transcript.entries[2] else { Issue.record("entry 2 is not toolCalls"); return }
        let outputIDs = session.transcript.entries.compactMap { entry -> String? in
            if case .toolOutput(let output) = entry { return output.toolCallID }
            return nil
        }
        #expect(outputIDs == entry.calls.map(\.id))
    }

    @Test func aRequiredCallCutByTheTokenLimitIsATruncatedModelFailure() throws {
        let partial = #"<tool_call>{"name":"getCityInfo","arguments":{"city":"Paris, the capital of France"}}"#
        let session = scriptedSession([.text(partial)], configuration: try configuration(.required, maximumResponseTokens: 5))
        do {
            _ = try session.respond(to: "q")
            Issue.record("a cut required call must fail")
        } catch let error as GeneratedContent.ParsingError {
            #expect(error.failureClass == .modelBehavior)
            #expect(error.message.contains("maximumResponseTokens (5 tokens) cut the model turn"))
        }
        let stats = session.lastTurnStats
        #expect(stats.truncated)
        let kept = try #require(stats.lastResponseText)
        #expect(!kept.isEmpty && partial.hasPrefix(kept) && kept != partial)
        #expect(stats.toolCalls == 0)
    }
}
