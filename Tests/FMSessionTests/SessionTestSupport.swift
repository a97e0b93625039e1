import Foundation
import FMCore
import FMSession
@testable import FMEngines

/// A session on a scripted engine playing `steps`.
func scriptedSession(_ steps: [ScriptStep], configuration: SessionConfiguration = SessionConfiguration()) -> LanguageModelSession {
    LanguageModelSession(engine: ScriptedEngine(script: .steps(steps)), configuration: configuration)
}

/// A tool named `name` taking `{city: string}` and answering `output`.
func cityTool(_ name: String = "getCityInfo", output: ToolOutput = .text("Sunny, 21°C.")) throws -> SessionTool {
    let schema = try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "city", node: .init(.string(.init())))]))))
    return SessionTool(definition: ToolDefinition(name: name, description: "Get information about a city.", parameters: schema),
                       output: output)
}

/// A scripted call of `name` with `{city: city}`.
func call(_ name: String = "getCityInfo", city: String) -> ScriptedToolCall {
    ScriptedToolCall(name: name, arguments: ["city": GeneratedContent(city)])
}

/// The kinds of the transcript's entries, in order.
func entryKinds(_ transcript: Transcript) -> [String] {
    transcript.entries.map { entry in
        switch entry {
        case .instructions: return "instructions"
        case .prompt: return "prompt"
        case .response: return "response"
        case .reasoning: return "reasoning"
        case .toolCalls: return "toolCalls"
        case .toolOutput: return "toolOutput"
        }
    }
}

/// An engine that blocks inside `respond` until released, to test concurrent requests.
final class BlockingEngine: LanguageModelEngine {
    let identity = EngineIdentity(name: "blocking", model: "test")
    let capabilities = EngineCapabilities(guidedGeneration: false, toolCalling: false, streaming: true)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        try checkCapabilities(for: request)
        entered.signal()
        release.wait()
        onEvent(.textDelta("done"))
        return EngineResponse(text: "done")
    }
}
