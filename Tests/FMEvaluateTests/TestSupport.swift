import FMCore
@testable import FMEvaluate

/// A subject whose only output is `text`.
func textSubject(_ text: String, prompt: String = "prompt") -> EvaluationSubject {
    EvaluationSubject(prompt: prompt, text: text)
}

/// A subject whose output is structured `content`.
func structuredSubject(_ content: GeneratedContent, schema: GenerationSchema? = nil) -> EvaluationSubject {
    EvaluationSubject(prompt: "prompt", text: content.jsonString, content: content, schema: schema)
}

/// A subject whose transcript holds these calls, `(name, arguments)`, in order.
func callsSubject(_ calls: [(String, GeneratedContent)]) -> EvaluationSubject {
    let toolCalls = calls.enumerated().map { ToolCall(id: "call-\($0)", name: $1.0, arguments: $1.1) }
    return EvaluationSubject(prompt: "prompt", text: "done", structuredTranscript: StructuredTranscript(toolCalls: toolCalls))
}

/// The metric named `name`, if any.
func metric(_ metrics: [Metric], _ name: String) -> Metric? {
    metrics.first { $0.name == name }
}

/// An engine that answers every request from a closure and records the requests it saw.
final class FakeEngine: LanguageModelEngine {
    let identity = EngineIdentity(name: "fake", model: "fake-judge")
    let capabilities = EngineCapabilities.all
    private(set) var requests: [EngineRequest] = []
    let answer: (EngineRequest) throws -> EngineResponse

    init(answer: @escaping (EngineRequest) throws -> EngineResponse) {
        self.answer = answer
    }

    /// An engine that always answers with `json` parsed as the structured content.
    convenience init(json: String) {
        self.init { _ in EngineResponse(text: json, content: try GeneratedContent(json: json)) }
    }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        requests.append(request)
        return try answer(request)
    }

    /// The prompt text of the last request.
    var lastPrompt: String {
        guard let request = requests.last else { return "" }
        for entry in request.transcript.entries.reversed() {
            if case .prompt(let prompt) = entry { return prompt.segments.map(\.text).joined() }
        }
        return ""
    }
}

/// Swift Testing also declares `Expectation`; in these tests the name means fmeval's.
typealias Expectation = FMEvaluate.Expectation
