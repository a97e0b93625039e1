import Foundation
import FMCore

/// The `scripted` engine: plays back the responses, tool calls and errors a suite wrote in `script:`.
///
/// One instance serves one attempt. Each `respond` takes the next step of the script (per turn for
/// `turns:` scripts). It behaves like a model under the request's limits: text and structures stream
/// as deltas and snapshots, `maximumResponseTokens` or the context budget cuts the output (finish reason `length`), and
/// token counts follow `TokenEstimate` unless the step gives them.
public final class ScriptedEngine: LanguageModelEngine {
    /// `scripted (script)`.
    public let identity = EngineIdentity(name: "scripted", model: "script")
    /// Every capability: a script can say anything.
    public let capabilities = EngineCapabilities.all

    private let script: EngineScript
    private let lock = NSLock()
    private var consumed: [Int: Int] = [:]
    private var turn = 0
    private var lastPromptID: String?

    /// An engine playing `script` for attempt number `attempt` (0-based; picks among `attempts:` scripts).
    public init(script: EngineScript, attempt: Int = 0) {
        self.script = script.forAttempt(attempt)
    }

    /// Plays the next step as a response, or throws its error.
    public func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        try checkCapabilities(for: request)
        let step = try nextStep(promptID: request.transcript.entries.last { if case .prompt = $0 { true } else { false } }?.id)
        if let latency = step.latencyMs, latency > 0 { Thread.sleep(forTimeInterval: latency / 1000) }
        if let caseName = step.error {
            let message = step.message ?? "scripted \(caseName)"
            guard let error = LanguageModelError(caseName: caseName, debugDescription: message) else {
                throw ScriptError(message: "unknown error '\(caseName)' in script; use one of \(LanguageModelError.caseNames.joined(separator: ", "))")
            }
            throw error
        }
        let inputTokens = step.inputTokens ?? request.estimatedPromptTokens
        if let calls = step.toolCalls {
            let toolCalls = calls.enumerated().map { index, call in
                ToolCall(id: "call-\(request.transcript.entries.count)-\(index)", name: call.name, arguments: call.arguments)
            }
            toolCalls.forEach { onEvent(.toolCall($0)) }
            let outputTokens = step.outputTokens ?? toolCalls.reduce(0) { $0 + TokenEstimate.count($1.name + $1.arguments.jsonString) }
            return EngineResponse(toolCalls: toolCalls, finishReason: .toolCalls,
                                  usage: Usage(inputTokens: inputTokens, outputTokens: outputTokens))
        }
        let structured = step.structure != nil
        let fullText = step.structure?.jsonString ?? step.text ?? ""
        var outputTokens = step.outputTokens ?? TokenEstimate.count(fullText)
        var text = fullText
        var finish = FinishReason.stop
        if let limit = request.responseTokenLimit, outputTokens > limit {
            let kept = Double(limit) / Double(max(outputTokens, 1))
            text = TokenEstimate.prefix(fullText, tokens: Int(Double(TokenEstimate.count(fullText)) * kept))
            outputTokens = limit
            finish = .length
        }
        let content = stream(text, structured: structured || request.schema != nil, onEvent: onEvent)
        return EngineResponse(text: text, content: finish == .stop ? (step.structure ?? content) : nil,
                              finishReason: finish, usage: Usage(inputTokens: inputTokens, outputTokens: outputTokens))
    }

    /// Streams `text` in token-sized deltas, or as structure snapshots; returns the parsed structure.
    private func stream(_ text: String, structured: Bool, onEvent: (EngineEvent) -> Void) -> GeneratedContent? {
        let chunks = ScriptedEngine.chunks(of: text)
        guard structured else {
            chunks.forEach { onEvent(.textDelta($0)) }
            return nil
        }
        var sofar = ""
        var snapshots = PartialStructureSnapshots()
        for chunk in chunks {
            sofar += chunk
            if let snapshot = snapshots.next(sofar) { onEvent(.partialStructure(snapshot)) }
        }
        return (try? GeneratedContent(json: text))
    }

    /// Splits `text` into pieces of `TokenEstimate.bytesPerToken` bytes or fewer, on character boundaries.
    static func chunks(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in text {
            if current.utf8.count + character.utf8.count > TokenEstimate.bytesPerToken, !current.isEmpty {
                pieces.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The next step; a request whose latest prompt is new starts the next turn (counted here, not from the
    /// transcript, whose earlier prompts a transcript edit may have removed).
    private func nextStep(promptID: String?) throws -> ScriptStep {
        lock.lock()
        defer { lock.unlock() }
        if let promptID, promptID != lastPromptID {
            turn += 1
            lastPromptID = promptID
        }
        let steps: [ScriptStep]
        let key: Int
        switch script {
        case .steps(let list):
            steps = list
            key = 0
        case .turns(let turns):
            guard turn >= 1, turn <= turns.count else {
                throw ScriptError(message: "the script has \(turns.count) turn(s) but the case reached turn \(turn); add a step list for it under 'turns'")
            }
            steps = turns[turn - 1]
            key = turn
        case .attempts:
            throw ScriptError(message: "the script's 'attempts' list is empty; give at least one script")
        }
        let index = consumed[key, default: 0]
        guard index < steps.count else {
            let place = key == 0 ? "" : " of turn \(key)"
            throw ScriptError(message: "the script ran out of steps: engine call \(index + 1)\(place) has no step (\(steps.count) scripted); add a step")
        }
        consumed[key] = index + 1
        return steps[index]
    }
}

/// A script that cannot be played (ran out of steps, unknown error name): an engine fault, not a model error.
public struct ScriptError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What is wrong with the script and how to fix it.
    public var message: String

    /// Creates a script error.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension ScriptError: ClassifiedError {
    /// A script that cannot be played is infrastructure.
    public var failureClass: FailureClass { .infrastructure }

    /// `ScriptError`.
    public var domain: String { "ScriptError" }

    /// `scriptError`.
    public var caseName: String { "scriptError" }

    /// The message.
    public var failureMessage: String { message }
}

extension ScriptedEngine {
    /// The registry entry: no options; each attempt gets a fresh engine playing the case's `script:`, which
    /// another engine ignores (the run says so when the engine flags replace it).
    static let descriptor = EngineDescriptor(
        name: "scripted", summary: "plays each case's `script:` back (tests of suites and of fmeval itself)",
        options: [], caseData: EngineScript.caseData) { _ in ScriptedEngineProvider() }
}

/// Scripted engines, one per attempt, each playing the case's script.
final class ScriptedEngineProvider: EngineProvider {
    let identity = EngineIdentity(name: "scripted", model: "script")

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        guard let script = attempt.caseData[EngineScript.caseDataKey] as? EngineScript else {
            throw ScriptError(message: "case \(attempt.caseID) has no 'script:' for the scripted engine; add one or choose another engine")
        }
        return ScriptedEngine(script: script, attempt: attempt.attempt)
    }

    /// Deterministic: an attempt's answers are its script (an `attempts:` script picks one per attempt).
    func reuseKey(for attempt: AttemptContext) -> String? {
        guard let script = attempt.caseData[EngineScript.caseDataKey] as? EngineScript else { return nil }
        return EngineCaseData.json(script.forAttempt(attempt.attempt))
    }
}
