#if canImport(FoundationModels)
import Foundation
import FoundationModels
import FMCore

// The `system` engine: every request through Apple's `LanguageModelSession` on SystemLanguageModel.default.
// Only Foundation Models 26 API is used here, so the file builds with the macOS 26 and 27 SDKs alike;
// `.ci/typecheck-system-engine` checks it on Linux against Apple's published declarations.

extension SystemEngineEntry {
    /// Checks the device first: macOS 26 or later, then `SystemLanguageModel.default.availability`.
    static func provider() throws -> EngineProvider {
        guard #available(macOS 26.0, iOS 26.0, visionOS 26.0, *) else {
            throw unavailable("this system is older (\(ProcessInfo.processInfo.operatingSystemVersionString))")
        }
        switch SystemLanguageModel.default.availability {
        case .available:
            return SharedEngineProvider(engine: SystemEngine())
        case .unavailable(let reason):
            throw unavailable("Apple's model is unavailable on this device: \(describe(reason))")
        }
    }

    /// The reason's case name and what to do about it.
    @available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
    static func describe(_ reason: SystemLanguageModel.Availability.UnavailableReason) -> String {
        switch reason {
        case .appleIntelligenceNotEnabled:
            return "appleIntelligenceNotEnabled (turn on Apple Intelligence in System Settings)"
        case .deviceNotEligible:
            return "deviceNotEligible (this device cannot run Apple Intelligence)"
        case .modelNotReady:
            return "modelNotReady (the model is still downloading, or a setting keeps it from downloading; "
                + "try again later)"
        @unknown default:
            return "\(reason)"
        }
    }
}

/// One engine call answered by a fresh `LanguageModelSession` rehydrated from the request's transcript.
///
/// fmeval's session runs the tool loop, so every engine call is one request, as cassettes record them.
/// Apple's session calls its tools itself, so a request whose turn already holds tool calls and outputs is
/// answered by asking the turn's prompt again: the tools answer the calls already made with their
/// recorded outputs, and the first new call stops the session (its tool throws `SystemToolPause`); the
/// new calls go back to fmeval's loop as finish reason `toolCalls`.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
final class SystemEngine: LanguageModelEngine {
    let identity = SystemEngineEntry.identity
    /// Guided generation and tools; each answer arrives whole (no streaming); no images through the 26 API.
    let capabilities = EngineCapabilities(guidedGeneration: true, toolCalling: true, streaming: false,
                                          imageInput: false)
    /// The OS build that served the run (the model ships with it).
    var runDetails: [String: String] { ["os": ProcessInfo.processInfo.operatingSystemVersionString] }

    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        try checkCapabilities(for: request)
        let turn = try SystemTurn(request: request)
        let outcome: SystemOutcome
        do {
            outcome = try SystemBridge.wait { try await turn.run() }
        } catch {
            throw SystemErrors.mapped(error)
        }
        let transcript: FMCore.Transcript
        do {
            transcript = try FMCore.Transcript(json: String(decoding: outcome.transcriptJSON, as: UTF8.self))
        } catch {
            throw SystemEngineError(caseName: "transcriptFormat",
                message: "Apple's session transcript did not decode as fmeval's transcript JSON: \(error)")
        }
        let inputTokens = request.estimatedPromptTokens
        if outcome.paused {
            let calls = try turn.ledger.newCalls(named: SystemTurn.unansweredCalls(in: transcript),
                                                 fallbackPrefix: "call-\(request.transcript.entries.count)")
            calls.forEach { onEvent(.toolCall($0)) }
            let tokens = calls.reduce(0) { $0 + TokenEstimate.count($1.name + $1.arguments.jsonString) }
            return EngineResponse(toolCalls: calls, finishReason: .toolCalls,
                                  usage: Usage(inputTokens: inputTokens, outputTokens: tokens))
        }
        try turn.ledger.checkAllReplayed()
        guard case .response(let answer)? = transcript.entries.last else {
            throw SystemEngineError(caseName: "transcriptFormat",
                message: "Apple's session answered but its transcript does not end in a response entry")
        }
        var text = ""
        var content: FMCore.GeneratedContent?
        for segment in answer.segments {
            switch segment {
            case .structure(let structured):
                content = structured.content
                text += structured.content.jsonString
            default:
                text += segment.text
            }
        }
        if let content { onEvent(.partialStructure(content)) } else { onEvent(.textDelta(text)) }
        return EngineResponse(text: text, content: content, finishReason: .stop,
                              usage: Usage(inputTokens: inputTokens, outputTokens: TokenEstimate.count(text)))
    }
}

/// What one engine call asks Apple's session, in Sendable parts (the session is made inside the task).
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
struct SystemTurn: Sendable {
    /// The transcript before the turn's prompt, as fmeval's transcript JSON (Apple's Codable form).
    let historyJSON: Data
    let prompt: String
    let schemaJSON: Data?
    let includeSchemaInPrompt: Bool
    let tools: [(name: String, description: String, parametersJSON: Data)]
    let sampling: FMCore.GenerationOptions.SamplingMode
    let temperature: Double?
    let maximumResponseTokens: Int?
    let ledger: SystemToolLedger

    init(request: EngineRequest) throws {
        let entries = request.transcript.entries
        guard let promptIndex = entries.lastIndex(where: { if case .prompt = $0 { true } else { false } }),
              case .prompt(let prompt) = entries[promptIndex] else {
            throw SystemEngineError(caseName: "noPrompt", message: "the request's transcript holds no prompt")
        }
        historyJSON = Data(FMCore.Transcript(entries: Array(entries[..<promptIndex])).jsonString.utf8)
        self.prompt = prompt.segments.map(\.text).joined()
        if request.schema != nil && !request.constrained {
            throw FMCore.LanguageModelError.unsupportedCapability(.init(debugDescription:
                "engine 'system': Apple's session always enforces a response schema; the prompt-only channel "
                    + "(constrained: false) has no Foundation Models equivalent"))
        }
        schemaJSON = request.schema.map { Data($0.jsonString.utf8) }
        includeSchemaInPrompt = request.includeSchemaInPrompt
        switch request.toolCallingMode {
        case .allowed:
            tools = request.tools.map { ($0.name, $0.description, Data($0.parameters.jsonString.utf8)) }
        case .disallowed:
            tools = []
        case .required:
            throw FMCore.LanguageModelError.unsupportedCapability(.init(debugDescription:
                "engine 'system' uses the Foundation Models 26 API, which has no toolCallingMode; "
                    + "'required' needs GenerationOptions.toolCallingMode (Foundation Models 27)"))
        }
        sampling = request.options.sampling ?? .greedy
        temperature = request.options.temperature
        maximumResponseTokens = request.options.maximumResponseTokens
        ledger = SystemToolLedger(replaying: SystemTurn.completedCalls(in: entries[(promptIndex + 1)...]))
    }

    /// The turn's calls that already have outputs, each with its output text, in order.
    static func completedCalls(in entries: ArraySlice<FMCore.Transcript.Entry>)
        -> [(call: FMCore.ToolCall, output: String)] {
        var calls: [FMCore.ToolCall] = []
        var outputs: [(name: String, callID: String?, text: String)] = []
        for entry in entries {
            if case .toolCalls(let made) = entry { calls += made.calls }
            if case .toolOutput(let output) = entry {
                outputs.append((output.toolName, output.toolCallID, output.segments.map(\.text).joined()))
            }
        }
        var answered: [(call: FMCore.ToolCall, output: String)] = []
        for output in outputs {
            let index = calls.firstIndex { $0.id == output.callID } ?? calls.firstIndex { $0.name == output.name }
            guard let index else { continue }
            answered.append((calls.remove(at: index), output.text))
        }
        return answered
    }

    /// The calls of the transcript's last entry when it is a tool-calls entry (Apple's, not yet answered).
    static func unansweredCalls(in transcript: FMCore.Transcript) -> [FMCore.ToolCall] {
        guard case .toolCalls(let made)? = transcript.entries.last else { return [] }
        return made.calls
    }

    /// Rehydrates Apple's session from the history and asks the prompt (with the schema, when one is set).
    func run() async throws -> SystemOutcome {
        let history = try SystemTurn.decode(FoundationModels.Transcript.self, historyJSON, "the transcript history")
        let sessionTools: [any FoundationModels.Tool] = try tools.map { tool in
            SystemTool(name: tool.name, description: tool.description,
                       parameters: try SystemTurn.decode(FoundationModels.GenerationSchema.self, tool.parametersJSON,
                                                         "tool '\(tool.name)' arguments schema"),
                       ledger: ledger)
        }
        let session = FoundationModels.LanguageModelSession(model: .default, tools: sessionTools, transcript: history)
        let options = FoundationModels.GenerationOptions(sampling: appleSampling, temperature: temperature,
                                                         maximumResponseTokens: maximumResponseTokens)
        do {
            if let schemaJSON {
                let schema = try SystemTurn.decode(FoundationModels.GenerationSchema.self, schemaJSON,
                                                   "the response schema")
                _ = try await session.respond(to: prompt, schema: schema,
                                              includeSchemaInPrompt: includeSchemaInPrompt, options: options)
            } else {
                _ = try await session.respond(to: prompt, options: options)
            }
            return SystemOutcome(paused: false, transcriptJSON: try JSONEncoder().encode(session.transcript))
        } catch let error as FoundationModels.LanguageModelSession.ToolCallError
                    where error.underlyingError is SystemToolPause {
            return SystemOutcome(paused: true, transcriptJSON: try JSONEncoder().encode(session.transcript))
        }
    }

    /// fmeval's sampling mode as Apple's (fmeval's default, greedy, when the case sets none).
    var appleSampling: FoundationModels.GenerationOptions.SamplingMode {
        switch sampling {
        case .greedy: return .greedy
        case .topK(let top, let seed): return .random(top: top, seed: seed)
        case .nucleus(let threshold, let seed): return .random(probabilityThreshold: threshold, seed: seed)
        }
    }

    /// `data` decoded as Apple's `type`, or a located error naming `what`.
    static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, _ what: String) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw SystemEngineError(caseName: "schemaFormat",
                message: "\(what) did not decode as Foundation Models' \(type) from fmeval's JSON: \(error)")
        }
    }
}

/// What Apple's session left: the transcript (its Codable form) and whether a new tool call stopped it.
struct SystemOutcome: Sendable {
    let paused: Bool
    let transcriptJSON: Data
}

/// One suite tool as a Foundation Models `Tool`: the arguments schema is the tool's; the output is the one
/// fmeval's tool loop produced for the same call, or a pause that returns a new call to that loop.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
struct SystemTool: FoundationModels.Tool {
    let name: String
    let description: String
    let parameters: FoundationModels.GenerationSchema
    let ledger: SystemToolLedger

    func call(arguments: FoundationModels.GeneratedContent) async throws -> String {
        try ledger.answer(name: name, argumentsJSON: arguments.jsonString)
    }
}

/// Thrown by a `SystemTool` to stop Apple's session at a call fmeval's loop has not answered yet.
struct SystemToolPause: Error {}

/// The turn's recorded calls and outputs, and the new calls Apple's model made (tools may run at once).
final class SystemToolLedger: Sendable {
    private struct State: Sendable {
        var replaying: [(call: FMCore.ToolCall, output: String)]
        var made: [FMCore.ToolCall] = []
    }

    private let state: Locked<State>

    init(replaying: [(call: FMCore.ToolCall, output: String)]) { state = Locked(State(replaying: replaying)) }

    /// The recorded output of an earlier identical call, else records the call and throws `SystemToolPause`.
    func answer(name: String, argumentsJSON: String) throws -> String {
        let arguments = (try? FMCore.GeneratedContent(json: argumentsJSON)) ?? FMCore.GeneratedContent(argumentsJSON)
        let output: String? = state.withLock { state in
            let index = state.replaying.firstIndex { $0.call.name == name && $0.call.arguments == arguments }
            if let index { return state.replaying.remove(at: index).output }
            state.made.append(FMCore.ToolCall(id: "", name: name, arguments: arguments))
            return nil
        }
        guard let output else { throw SystemToolPause() }
        return output
    }

    /// The new calls, with Apple's ids where its transcript's last entry holds the same call.
    func newCalls(named appleCalls: [FMCore.ToolCall], fallbackPrefix: String) throws -> [FMCore.ToolCall] {
        try checkAllReplayed()
        var unclaimed = appleCalls
        return state.withLock { $0.made }.enumerated().map { index, call in
            var named = call
            if let match = unclaimed.firstIndex(where: { $0.name == call.name && $0.arguments == call.arguments }) {
                named.id = unclaimed.remove(at: match).id
            } else {
                named.id = "\(fallbackPrefix)-\(index)"
            }
            return named
        }
    }

    /// Throws when asking the turn again did not repeat every call it had made (the model answered differently).
    func checkAllReplayed() throws {
        guard let missed = state.withLock({ $0.replaying.first }) else { return }
        throw SystemEngineError(caseName: "turnDiverged",
            message: "asked the turn again, Apple's model did not repeat its call \(missed.call.name)"
                + "(\(missed.call.arguments.jsonString)); the system engine replays a turn's earlier tool calls "
                + "and needs greedy sampling for tool loops")
    }
}

/// Runs Apple's async API from the engine's synchronous `respond`.
enum SystemBridge {
    /// The value `body` returns or the error it throws, waiting on the calling thread.
    static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let box = Locked<Result<Value, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<Value, Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            box.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }
}

/// Apple's errors in fmeval's taxonomy.
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
enum SystemErrors {
    /// `error` as fmeval classifies it: `LanguageModelError` cases by name, session misuse, parsing errors.
    static func mapped(_ error: Error) -> Error {
        typealias Context = FMCore.LanguageModelError.Context
        guard let generation = error as? FoundationModels.LanguageModelSession.GenerationError else {
            if let toolError = error as? FoundationModels.LanguageModelSession.ToolCallError {
                return SystemEngineError(caseName: "toolCallError",
                    message: "a tool failed inside Apple's session: \(toolError.underlyingError)")
            }
            return error
        }
        switch generation {
        case .exceededContextWindowSize(let context):
            return FMCore.LanguageModelError.contextSizeExceeded(Context(debugDescription: context.debugDescription))
        case .assetsUnavailable(let context):
            return SystemEngineError(caseName: "assetsUnavailable", domain: "SystemLanguageModel.Error",
                                     message: "the model's assets are unavailable: \(context.debugDescription)")
        case .guardrailViolation(let context):
            return FMCore.LanguageModelError.guardrailViolation(Context(debugDescription: context.debugDescription))
        case .unsupportedGuide(let context):
            return FMCore.LanguageModelError.unsupportedGenerationGuide(
                Context(debugDescription: context.debugDescription))
        case .unsupportedLanguageOrLocale(let context):
            return FMCore.LanguageModelError.unsupportedLanguageOrLocale(
                Context(debugDescription: context.debugDescription))
        case .decodingFailure(let context):
            return FMCore.GeneratedContent.ParsingError(line: 1, column: 1,
                message: "Apple's session could not decode the model's output: \(context.debugDescription)")
        case .rateLimited(let context):
            return FMCore.LanguageModelError.rateLimited(Context(debugDescription: context.debugDescription))
        case .concurrentRequests:
            return FMCore.LanguageModelSessionError.concurrentRequests
        case .refusal(_, let context):
            return FMCore.LanguageModelError.refusal(Context(debugDescription: context.debugDescription))
        @unknown default:
            return SystemEngineError(caseName: "generationError", message: "\(generation)")
        }
    }
}

/// A failure of the system engine itself (not of the model's output): an infrastructure error.
struct SystemEngineError: ClassifiedError, CustomStringConvertible {
    let caseName: String
    var domain = "SystemEngineError"
    let message: String

    init(caseName: String, domain: String = "SystemEngineError", message: String) {
        self.caseName = caseName
        self.domain = domain
        self.message = message
    }

    var failureClass: FailureClass { .infrastructure }
    var failureMessage: String { message }
    var description: String { message }
}
#endif
