import Foundation
import FMCore

/// Foundation Models session semantics over any engine (Apple's `LanguageModelSession` over an executor).
///
/// Instructions (with the tool definitions) are transcript entry 0. Each `respond` appends the prompt,
/// then loops: check the context window, call the engine, run the tools it calls and append their
/// outputs, until the model answers with a response — or the loop guard (`maxToolCalls`) stops it.
/// The response shares the context window with the prompt: an engine may generate at most the tokens the
/// prompt leaves, and a response that runs off the window's end throws `contextSizeExceeded`.
/// One request at a time: a second concurrent `respond` throws `concurrentRequests`; the transcript may be
/// replaced between requests, and replacing it during one makes that request throw
/// `transcriptMutationWhileResponding`.
// @unchecked Sendable: the transcript, counters, `responding` and the mutation flag change only under `lock`, and `responding`
// admits one `respond` at a time, so only that caller's thread uses `engine` and `tools`.
public final class LanguageModelSession: @unchecked Sendable {
    /// The engine generating responses.
    public let engine: LanguageModelEngine
    /// The session's set-up.
    public let configuration: SessionConfiguration

    private let lock = NSLock()
    private var responding = false
    private var mutatedWhileResponding = false
    private var entries: [Transcript.Entry]
    private var statsOfLastTurn = TurnStats()
    private var nextID = 0
    private let tools: ToolRunner

    /// A session on `engine` set up by `configuration`.
    public init(engine: LanguageModelEngine, configuration: SessionConfiguration) {
        self.engine = engine
        self.configuration = configuration
        self.tools = ToolRunner(tools: configuration.tools, baseDirectory: configuration.baseDirectory, commands: configuration.commands)
        self.entries = []
        if configuration.instructions != nil || !configuration.tools.isEmpty {
            let segments = configuration.instructions.map { [Transcript.Segment.text(.init(id: makeID("seg"), content: $0))] } ?? []
            entries.append(.instructions(.init(id: makeID("instructions"), segments: segments,
                                               toolDefinitions: configuration.tools.map(\.definition))))
        }
    }

    /// The transcript so far (safe to read and set from any thread). Setting it while a `respond` is in
    /// progress replaces it and makes that `respond` throw `transcriptMutationWhileResponding`, as on the device.
    public var transcript: Transcript {
        get {
            lock.lock()
            defer { lock.unlock() }
            return Transcript(entries: entries)
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            entries = newValue.entries
            if responding { mutatedWhileResponding = true }
        }
    }

    /// Whether a `respond` is in progress.
    public var isResponding: Bool {
        lock.lock()
        defer { lock.unlock() }
        return responding
    }

    /// Counters of the most recent `respond`, also after it threw.
    public var lastTurnStats: TurnStats {
        lock.lock()
        defer { lock.unlock() }
        return statsOfLastTurn
    }

    /// Answers `prompt` (running tools as the model calls them), with a structure when `schema` (or the
    /// configuration's schema) is given. `attachments` (images) follow the prompt's text in its entry.
    /// `onEvent` sees each engine event as it streams.
    public func respond(to prompt: String, attachments: [Transcript.AttachmentSegment] = [], schema: GenerationSchema? = nil,
                        onEvent: ((EngineEvent) -> Void)? = nil) throws -> SessionResponse {
        lock.lock()
        if responding {
            lock.unlock()
            throw LanguageModelSessionError.concurrentRequests
        }
        responding = true
        mutatedWhileResponding = false
        statsOfLastTurn = TurnStats()
        lock.unlock()
        defer {
            lock.lock()
            responding = false
            lock.unlock()
        }
        let schema = schema ?? configuration.schema
        let format = schema.map { Transcript.ResponseFormat(name: $0.root.title ?? "response", schema: $0) }
        append(.prompt(.init(id: makeID("prompt"), segments: [.text(.init(id: makeID("seg"), content: prompt))] + attachments.map { .attachment($0) },
                             options: configuration.options, responseFormat: format)))
        let started = DispatchTime.now()
        var madeCalls: [ToolCall] = []
        while true {
            try checkUnmutated()
            var request = EngineRequest(transcript: transcript, options: configuration.options, schema: schema,
                                        tools: configuration.tools.map(\.definition), constrained: configuration.constrained,
                                        includeSchemaInPrompt: configuration.includeSchemaInPrompt,
                                        guideEnforcement: configuration.guideEnforcement, loopGuards: configuration.loopGuards)
            try engine.checkCapabilities(for: request)
            request.contextBudget = try contextBudget(for: request)
            let response = try engine.respond(to: request) { event in
                self.observe(event, since: started)
                onEvent?(event)
            }
            updateStats {
                $0.engineCalls += 1; $0.engineRetries += response.retries ?? 0; $0.usage += response.usage
                $0.grammarLimits += response.grammarLimits ?? []
                $0.timings = EngineTimings.sum($0.timings, response.timings)
            }
            try checkUnmutated()
            try checkWindow(response, of: request)
            if !response.toolCalls.isEmpty {
                try checkMode(request.toolCallingMode, calledTools: true)
                madeCalls += response.toolCalls
                try runTools(response.toolCalls, total: madeCalls.count, required: request.toolCallingMode == .required)
                continue
            }
            if request.toolCallingMode == .required && response.finishReason == .length {
                throw cutToolCall(response)
            }
            try checkMode(request.toolCallingMode, calledTools: false)
            return try finish(response, schema: schema, toolCalls: madeCalls)
        }
    }

    /// The tokens the context window leaves for the response after `request`'s prompt; throws
    /// `contextSizeExceeded` when the prompt alone does not fit.
    private func contextBudget(for request: EngineRequest) throws -> Int {
        let images = request.transcript.imageCount
        let imageTokens = images * configuration.imageTokens
        let promptTokens = try (engine.promptTokenCount(for: request) ?? request.estimatedPromptTokens) + imageTokens
        guard promptTokens <= configuration.contextSize else {
            let ofImages = images == 0 ? "" : " (\(imageTokens) of them for \(images) image\(images == 1 ? "" : "s") at imageTokens "
                + "\(configuration.imageTokens) each)"
            throw LanguageModelError.contextSizeExceeded(.init(debugDescription:
                "the prompt needs \(promptTokens) tokens\(ofImages) but contextSize is \(configuration.contextSize); "
                + "shorten the instructions, prompt or turns\(images == 0 ? "" : ", attach fewer images"), or raise contextSize"))
        }
        return configuration.contextSize - promptTokens
    }

    /// Throws `contextSizeExceeded` when `response` was cut by the context window rather than by
    /// `maximumResponseTokens`: on the device the response shares the window and running off its end throws.
    private func checkWindow(_ response: EngineResponse, of request: EngineRequest) throws {
        guard response.finishReason == .length, request.isWindowLimited, let budget = request.contextBudget else { return }
        updateStats { $0.lastResponseText = response.text }
        let size = configuration.contextSize
        throw LanguageModelError.contextSizeExceeded(.init(debugDescription:
            "the prompt takes \(size - budget) of contextSize \(size) tokens and the response ran past the \(budget) left "
            + "(it had \(response.usage.outputTokens) when it was stopped); the response shares the context window. "
            + "Shorten the instructions, prompt or turns, ask for a shorter answer, or raise contextSize"))
    }

    /// Throws `transcriptMutationWhileResponding` when the transcript was replaced during this `respond`.
    private func checkUnmutated() throws {
        lock.lock()
        defer { lock.unlock() }
        if mutatedWhileResponding { throw LanguageModelSessionError.transcriptMutationWhileResponding }
    }

    /// Appends one `toolCalls` entry holding every call of the model turn, then one `toolOutput` per call,
    /// in order (Apple's transcript shape for parallel calls).
    private func runTools(_ calls: [ToolCall], total: Int, required: Bool) throws {
        append(.toolCalls(.init(id: makeID("toolCalls"), calls: calls)))
        if total > configuration.maxToolCalls {
            throw SessionError.toolCallLimitExceeded(limit: configuration.maxToolCalls, lastTool: calls.last?.name ?? "",
                                                     underRequiredMode: required)
        }
        for call in calls {
            // Arguments that are not a JSON object are the model's malformed call: the tool is not run.
            guard call.arguments.orderedProperties != nil else {
                throw GeneratedContent.ParsingError(line: 1, column: 1,
                    message: "the model called tool '\(call.name)' with arguments that are not a JSON object "
                        + "(\(String(call.arguments.jsonString.prefix(200)))); the tool was not called",
                    rawContent: call.arguments.stringValue ?? call.arguments.jsonString)
            }
            let segment: Transcript.Segment
            let started = DispatchTime.now().uptimeNanoseconds
            let output = try tools.output(for: call)
            let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            switch output {
            case .text(let text): segment = .text(.init(id: makeID("seg"), content: text))
            case .structure(let content): segment = .structure(.init(id: makeID("seg"), source: call.name, content: content))
            }
            updateStats {
                $0.toolCalls += 1
                $0.toolMs += elapsedMs
            }
            append(.toolOutput(.init(id: makeID("toolOutput"), toolName: call.name, toolCallID: call.id, segments: [segment])))
        }
    }

    /// The error for a model turn that `maximumResponseTokens` cut before its required tool call was
    /// complete: the model's failure (a cut structure), with the partial text kept for the report.
    private func cutToolCall(_ response: EngineResponse) -> GeneratedContent.ParsingError {
        updateStats {
            $0.truncated = true
            $0.lastResponseText = response.text
        }
        let lines = response.text.split(separator: "\n", omittingEmptySubsequences: false)
        let limit = configuration.options.maximumResponseTokens.map { " (\($0) tokens)" } ?? ""
        return GeneratedContent.ParsingError(line: lines.count, column: (lines.last?.unicodeScalars.count ?? 0) + 1,
            message: "maximumResponseTokens\(limit) cut the model turn before its required tool call was complete; "
                + "raise maximumResponseTokens so the call fits")
    }

    private func checkMode(_ mode: GenerationOptions.ToolCallingMode, calledTools: Bool) throws {
        if calledTools && mode == .disallowed {
            throw SessionError.toolCallingModeViolation(
                "the engine called a tool although toolCallingMode is disallowed; the engine must not offer tool calls in this mode")
        }
        if !calledTools && mode == .required {
            throw SessionError.toolCallingModeViolation(
                "the engine answered without calling a tool although toolCallingMode is required")
        }
    }

    private func finish(_ response: EngineResponse, schema: GenerationSchema?, toolCalls: [ToolCall]) throws -> SessionResponse {
        let truncated = response.finishReason == .length
        updateStats {
            $0.truncated = $0.truncated || truncated
            $0.lastResponseText = response.text
        }
        var content: GeneratedContent?
        if schema != nil {
            if let parsed = response.content {
                content = parsed
            } else {
                do {
                    content = try GeneratedContent(json: response.text)
                } catch let error as GeneratedContent.ParsingError {
                    let reason = truncated ? "the structured response was cut by maximumResponseTokens" : "the structured response is not valid JSON"
                    throw GeneratedContent.ParsingError(line: error.line, column: error.column, message: "\(reason): \(error.message)",
                                                        rawContent: response.text)
                }
            }
        }
        let segment: Transcript.Segment = content.map {
            .structure(.init(id: makeID("seg"), source: schema?.root.title ?? "response", content: $0))
        } ?? .text(.init(id: makeID("seg"), content: response.text))
        append(.response(.init(id: makeID("response"), segments: [segment])))
        return SessionResponse(text: response.text, content: content, toolCalls: toolCalls, stats: lastTurnStats)
    }

    private func observe(_ event: EngineEvent, since start: DispatchTime) {
        switch event {
        case .textDelta, .partialStructure:
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            updateStats { stats in
                stats.snapshotCount += 1
                if stats.timeToFirstSnapshotMs == nil { stats.timeToFirstSnapshotMs = elapsed }
            }
        case .toolCall:
            break
        }
    }

    private func append(_ entry: Transcript.Entry) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    private func updateStats(_ change: (inout TurnStats) -> Void) {
        lock.lock()
        change(&statsOfLastTurn)
        lock.unlock()
    }

    private func makeID(_ kind: String) -> String {
        nextID += 1
        return "\(kind)-\(nextID)"
    }
}
