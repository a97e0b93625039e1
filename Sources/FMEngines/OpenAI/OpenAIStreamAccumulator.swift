import FMCore
import Foundation

/// Server-sent chat-completion chunks → engine events and the final completion (pure but for the clock).
///
/// Feed it the body bytes as they arrive; it splits `data:` lines, stops at `[DONE]`, accumulates
/// content deltas (text deltas, or partial-structure snapshots when a schema was asked for) and
/// tool-call deltas by index, and records the time to the first token.
public struct OpenAIStreamAccumulator {
    private struct PartialCall {
        var id: String?
        var name = ""
        var arguments = ""
    }

    private let request: EngineRequest
    private let url: String
    private let apiKey: String?
    private let started: DispatchTime
    private var pending: [UInt8] = []
    /// Where the search for the next newline resumes in `pending` (bytes before it hold none).
    private var scanned = 0
    private var redactor: OpenAIKeyRedactor
    private var text = ""
    private var calls: [Int: PartialCall] = [:]
    private var snapshots = PartialStructureSnapshots()
    private var finishReason: String?
    private var usage = Usage()
    private var timings: EngineTimings?
    private var serverModel: String?
    private var systemFingerprint: String?
    /// True once `data: [DONE]` arrived.
    public private(set) var isDone = false
    /// Milliseconds from the accumulator's creation to the first content or tool-call delta.
    public private(set) var timeToFirstTokenMs: Double?

    /// An accumulator for the stream answering `request` from `url`; the clock starts now. Any echo of
    /// `apiKey` is redacted from each line before it is read, and from the decoded content and tool
    /// calls as a whole stream (an echo split across events or chunks, in any ASCII case, included).
    public init(request: EngineRequest, url: String, apiKey: String? = nil) {
        self.request = request
        self.url = url
        self.apiKey = apiKey
        self.redactor = OpenAIKeyRedactor(apiKey: apiKey)
        self.started = DispatchTime.now()
    }

    /// Consumes body bytes, emitting events for each complete `data:` line; throws `OpenAIError`
    /// for a chunk that is not JSON, or `LanguageModelError`/`OpenAIError` for an error event.
    /// Each byte is scanned once, however long its line.
    public mutating func consume(_ bytes: Data, onEvent: (EngineEvent) -> Void) throws {
        pending.append(contentsOf: bytes)
        var lineStart = 0
        defer {
            pending.removeFirst(lineStart)
            scanned = pending.count
        }
        var index = scanned
        while index < pending.count {
            if pending[index] == UInt8(ascii: "\n") {
                var line = OpenAIError.redact(String(decoding: pending[lineStart..<index], as: UTF8.self), apiKey: apiKey)
                lineStart = index + 1
                if line.hasSuffix("\r") { line.removeLast() }
                try handle(line: line, onEvent: onEvent)
            }
            index += 1
        }
    }

    /// The completion once the stream ended; throws `streamCut` when it ended before a finish reason
    /// or `[DONE]`.
    public func finish() throws -> OpenAICompletion {
        guard isDone || finishReason != nil else {
            throw OpenAIError(kind: .streamCut, url: url,
                              detail: "the event stream ended before its finish_reason or [DONE] (\(text.utf8.count) bytes of content so far)")
        }
        func redacted(_ value: String) -> String { OpenAIError.redact(value, apiKey: apiKey) }
        let toolCalls = calls.keys.sorted().compactMap { index -> ToolCall? in
            guard let call = calls[index] else { return nil }
            return ToolCall(id: redacted(call.id ?? "call_\(index)"), name: redacted(call.name),
                            arguments: OpenAIResponseDecoder.arguments(GeneratedContent(redacted(call.arguments))))
        }
        var rest = redactor
        var response = OpenAIResponseDecoder.response(text: text + rest.flush(), toolCalls: toolCalls, finishReason: finishReason,
                                                      usage: usage, request: request)
        response.timings = timings
        return OpenAICompletion(response: response, serverModel: serverModel.map(redacted),
                                systemFingerprint: systemFingerprint.map(redacted))
    }

    private mutating func handle(line: String, onEvent: (EngineEvent) -> Void) throws {
        guard line.hasPrefix("data:"), !isDone else { return }
        let payload = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
        if payload == "[DONE]" {
            isDone = true
            release(redactor.flush(), onEvent: onEvent)
            return
        }
        let chunk: GeneratedContent
        do {
            chunk = try GeneratedContent(json: payload)
        } catch {
            throw OpenAIError(kind: .malformedResponse, url: url, detail: "a streamed event is not JSON (\(error))", body: payload)
        }
        if chunk["error"] != nil {
            let status = chunk["error"]?["code"]?.intValue ?? 500
            if let error = OpenAIResponseDecoder.languageModelError(status: status == 500 ? 400 : status, body: payload) { throw error }
            throw OpenAIError(kind: .httpStatus(status), url: url, detail: "the server sent an error event mid-stream", body: payload)
        }
        if let model = chunk["model"]?.stringValue { serverModel = model }
        if let fingerprint = chunk["system_fingerprint"]?.stringValue { systemFingerprint = fingerprint }
        if let value = chunk["usage"], !value.isNull { usage = try OpenAIResponseDecoder.usage(value, url: url, body: payload) }
        if let value = OpenAIResponseDecoder.timings(chunk["timings"]) { timings = value }
        guard let choice = chunk["choices"]?.arrayValue?.first else { return }
        let reason = choice["finish_reason"]?.stringValue
        if let reason { finishReason = reason }
        if let field = choice["delta"]?["content"], !field.isNull {
            guard let content = field.stringValue else {
                throw OpenAIError(kind: .malformedResponse, url: url,
                                  detail: "delta.content is a JSON \(field.typeName); expected a string or null", body: payload)
            }
            if !content.isEmpty {
                markFirstToken()
                release(redactor.feed(content), onEvent: onEvent)
            }
        }
        if reason != nil { release(redactor.flush(), onEvent: onEvent) }
        guard let delta = choice["delta"] else { return }
        for entry in delta["tool_calls"]?.arrayValue ?? [] {
            markFirstToken()
            let index = entry["index"]?.intValue ?? calls.count
            var call = calls[index] ?? PartialCall()
            if let id = entry["id"]?.stringValue { call.id = id }
            if let name = entry["function"]?["name"]?.stringValue { call.name += name }
            if let arguments = entry["function"]?["arguments"]?.stringValue { call.arguments += arguments }
            calls[index] = call
        }
    }

    /// Appends content the redactor released and tells `onEvent` (text, or the structure so far).
    private mutating func release(_ content: String, onEvent: (EngineEvent) -> Void) {
        guard !content.isEmpty else { return }
        text += content
        if request.schema == nil {
            onEvent(.textDelta(content))
        } else if let snapshot = snapshots.next(text) {
            onEvent(.partialStructure(snapshot))
        }
    }

    private mutating func markFirstToken() {
        guard timeToFirstTokenMs == nil else { return }
        timeToFirstTokenMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
    }
}
