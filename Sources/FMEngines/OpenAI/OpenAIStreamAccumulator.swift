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
    private var text = ""
    private var calls: [Int: PartialCall] = [:]
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
    /// `apiKey` in the stream is redacted before it is read.
    public init(request: EngineRequest, url: String, apiKey: String? = nil) {
        self.request = request
        self.url = url
        self.apiKey = apiKey
        self.started = DispatchTime.now()
    }

    /// Consumes body bytes, emitting events for each complete `data:` line; throws `OpenAIError`
    /// for a chunk that is not JSON, or `LanguageModelError`/`OpenAIError` for an error event.
    public mutating func consume(_ bytes: Data, onEvent: (EngineEvent) -> Void) throws {
        pending.append(contentsOf: bytes)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = OpenAIError.redact(String(decoding: pending[..<newline], as: UTF8.self), apiKey: apiKey)
            pending.removeSubrange(...newline)
            if line.hasSuffix("\r") { line.removeLast() }
            try handle(line: line, onEvent: onEvent)
        }
    }

    /// The completion once the stream ended; throws `streamCut` when it ended before a finish reason
    /// or `[DONE]`.
    public func finish() throws -> OpenAICompletion {
        guard isDone || finishReason != nil else {
            throw OpenAIError(kind: .streamCut, url: url,
                              detail: "the event stream ended before its finish_reason or [DONE] (\(text.utf8.count) bytes of content so far)")
        }
        let toolCalls = calls.keys.sorted().compactMap { index -> ToolCall? in
            guard let call = calls[index] else { return nil }
            return ToolCall(id: call.id ?? "call_\(index)", name: call.name,
                            arguments: OpenAIResponseDecoder.arguments(GeneratedContent(call.arguments)))
        }
        var response = OpenAIResponseDecoder.response(text: text, toolCalls: toolCalls, finishReason: finishReason,
                                                      usage: usage, request: request)
        response.timings = timings
        return OpenAICompletion(response: response, serverModel: serverModel, systemFingerprint: systemFingerprint)
    }

    private mutating func handle(line: String, onEvent: (EngineEvent) -> Void) throws {
        guard line.hasPrefix("data:"), !isDone else { return }
        let payload = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
        if payload == "[DONE]" {
            isDone = true
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
        if let value = chunk["usage"], !value.isNull { usage = OpenAIResponseDecoder.usage(value) }
        if let value = OpenAIResponseDecoder.timings(chunk["timings"]) { timings = value }
        guard let choice = chunk["choices"]?.arrayValue?.first else { return }
        if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
        guard let delta = choice["delta"] else { return }
        if let content = delta["content"]?.stringValue, !content.isEmpty {
            markFirstToken()
            text += content
            if request.schema == nil {
                onEvent(.textDelta(content))
            } else if let snapshot = GeneratedContent.partial(json: text) {
                onEvent(.partialStructure(snapshot))
            }
        }
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

    private mutating func markFirstToken() {
        guard timeToFirstTokenMs == nil else { return }
        timeToFirstTokenMs = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
    }
}
