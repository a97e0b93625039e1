import FMCore

/// One decoded chat completion: the engine response plus what the server says about itself.
public struct OpenAICompletion: Sendable, Hashable {
    /// The response as the session sees it.
    public var response: EngineResponse
    /// The `model` the server reports having used.
    public var serverModel: String?
    /// The server's `system_fingerprint` (its configuration), when it sends one.
    public var systemFingerprint: String?

    /// Creates a completion from its parts.
    public init(response: EngineResponse, serverModel: String? = nil, systemFingerprint: String? = nil) {
        self.response = response
        self.serverModel = serverModel
        self.systemFingerprint = systemFingerprint
    }
}

/// Chat-completions response JSON → `OpenAICompletion`, and error bodies → `LanguageModelError` (pure).
public enum OpenAIResponseDecoder {
    /// Decodes a non-streamed response body; throws `OpenAIError.malformedResponse` naming what is missing.
    /// `apiKey` is redacted from every decoded string (an echo the raw JSON hid behind escapes).
    public static func completion(json: String, request: EngineRequest, url: String, apiKey: String? = nil) throws -> OpenAICompletion {
        let body: GeneratedContent
        do {
            body = try GeneratedContent(json: json)
        } catch {
            throw OpenAIError(kind: .malformedResponse, url: url, detail: "the response is not JSON (\(error))", body: json)
        }
        guard let choices = body["choices"]?.arrayValue, let choice = choices.first, let message = choice["message"] else {
            throw OpenAIError(kind: .malformedResponse, url: url, detail: "the response has no choices[0].message", body: json)
        }
        func redacted(_ text: String?) -> String? { text.map { OpenAIError.redact($0, apiKey: apiKey) } }
        let calls = try toolCalls(message["tool_calls"], url: url, body: json, apiKey: apiKey)
        let text = try contentText(message["content"], url: url, body: json)
        var decoded = response(text: redacted(text) ?? "", toolCalls: calls, finishReason: choice["finish_reason"]?.stringValue,
                               usage: try usage(body["usage"], url: url, body: json), request: request)
        decoded.timings = timings(body["timings"])
        return OpenAICompletion(response: decoded, serverModel: redacted(body["model"]?.stringValue),
                                systemFingerprint: redacted(body["system_fingerprint"]?.stringValue))
    }

    /// llama-server's `timings` (`prompt_n`, `prompt_ms`, `predicted_n`, `predicted_ms`); nil when the
    /// server sends none (OpenAI, vLLM).
    static func timings(_ value: GeneratedContent?) -> EngineTimings? {
        guard let value, let promptMs = value["prompt_ms"]?.numberValue, let predictedMs = value["predicted_ms"]?.numberValue else { return nil }
        return EngineTimings(prefillTokens: value["prompt_n"]?.intValue ?? 0, prefillMs: promptMs,
                             decodeTokens: value["predicted_n"]?.intValue ?? 0, decodeMs: predictedMs)
    }

    /// The engine response for a finished generation: tool calls when there are any, else the text
    /// and, when a schema was asked for, its parsed structure (nil when the text does not parse:
    /// the model's failure, reported by the session as on the embedded engine).
    static func response(text: String, toolCalls: [ToolCall], finishReason: String?, usage: Usage,
                         request: EngineRequest) -> EngineResponse {
        if !toolCalls.isEmpty {
            return EngineResponse(text: "", toolCalls: toolCalls, finishReason: .toolCalls, usage: usage)
        }
        let finish: FinishReason = finishReason == "length" ? .length : .stop
        let content = request.schema == nil ? nil : try? GeneratedContent(json: text)
        return EngineResponse(text: text, content: content, finishReason: finish, usage: usage)
    }

    /// `message.content` as text: a string, the text parts of an array, or "" for null. Anything else (a
    /// number, an object, a part whose `text` is not a string) is a malformed response, not an empty answer.
    static func contentText(_ content: GeneratedContent?, url: String, body: String) throws -> String {
        guard let content, !content.isNull else { return "" }
        if let text = content.stringValue { return text }
        guard let parts = content.arrayValue else {
            throw OpenAIError(kind: .malformedResponse, url: url,
                              detail: "message.content is a JSON \(content.typeName); expected a string, an array of text parts or null",
                              body: body)
        }
        return try parts.enumerated().map { index, part in
            guard let text = part["text"] else { return "" }
            guard let string = text.stringValue else {
                throw OpenAIError(kind: .malformedResponse, url: url,
                                  detail: "message.content[\(index)].text is a JSON \(text.typeName); expected a string", body: body)
            }
            return string
        }.joined()
    }

    /// `tool_calls` entries: id (made up when missing), function name, and the arguments JSON string
    /// parsed (arguments that do not parse are kept as one string value, for the session to reject).
    static func toolCalls(_ value: GeneratedContent?, url: String, body: String, apiKey: String? = nil) throws -> [ToolCall] {
        guard let value, !value.isNull else { return [] }
        guard let entries = value.arrayValue else {
            throw OpenAIError(kind: .malformedResponse, url: url, detail: "tool_calls is not an array", body: body)
        }
        return try entries.enumerated().map { index, entry in
            guard let name = entry["function"]?["name"]?.stringValue else {
                throw OpenAIError(kind: .malformedResponse, url: url, detail: "tool_calls[\(index)] has no function.name", body: body)
            }
            let id = OpenAIError.redact(entry["id"]?.stringValue ?? "call_\(index)", apiKey: apiKey)
            var raw = entry["function"]?["arguments"]
            if let text = raw?.stringValue { raw = GeneratedContent(OpenAIError.redact(text, apiKey: apiKey)) }
            return ToolCall(id: id, name: OpenAIError.redact(name, apiKey: apiKey), arguments: arguments(raw))
        }
    }

    /// Tool-call arguments: a JSON string parsed, an object taken as is, "" as an empty object.
    static func arguments(_ value: GeneratedContent?) -> GeneratedContent {
        guard let value else { return GeneratedContent(properties: []) }
        guard let text = value.stringValue else { return value }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return GeneratedContent(properties: []) }
        return (try? GeneratedContent(json: text)) ?? GeneratedContent(text)
    }

    /// The most tokens one usage figure may count; more (or a negative or fractional count) is a malformed response.
    static let largestTokenCount = 1_000_000_000

    /// `usage`: prompt and completion tokens, cached prompt tokens, reasoning tokens. A count that is not a
    /// whole number from 0 to `largestTokenCount` is a malformed response: it would be stored as a fact.
    static func usage(_ value: GeneratedContent?, url: String, body: String) throws -> Usage {
        guard let value, !value.isNull else { return Usage() }
        func count(_ path: String, _ field: GeneratedContent?) throws -> Int {
            guard let field, !field.isNull else { return 0 }
            guard let number = field.intValue, (0...largestTokenCount).contains(number) else {
                throw OpenAIError(kind: .malformedResponse, url: url,
                                  detail: "usage.\(path) is \(field.jsonString); expected a token count from 0 to \(largestTokenCount)",
                                  body: body)
            }
            return number
        }
        return Usage(inputTokens: try count("prompt_tokens", value["prompt_tokens"]),
                     cachedInputTokens: try count("prompt_tokens_details.cached_tokens", value["prompt_tokens_details"]?["cached_tokens"]),
                     outputTokens: try count("completion_tokens", value["completion_tokens"]),
                     reasoningTokens: try count("completion_tokens_details.reasoning_tokens",
                                                value["completion_tokens_details"]?["reasoning_tokens"]))
    }

    /// The model-behaviour error an error body describes: a prompt over the context window
    /// (llama-server's `exceed_context_size_error`, vLLM's "maximum context length is N tokens",
    /// OpenAI's `context_length_exceeded`) → `contextSizeExceeded`; nil for anything else.
    public static func languageModelError(status: Int, body: String) -> LanguageModelError? {
        guard status == 400 || status == 413 else { return nil }
        let parsed = try? GeneratedContent(json: body)
        let error = parsed?["error"] ?? parsed
        let type = error?["type"]?.stringValue ?? ""
        let code = error?["code"]?.stringValue ?? ""
        let message = error?["message"]?.stringValue ?? body
        if type == "exceed_context_size_error" {
            let prompt = error?["n_prompt_tokens"]?.intValue.map(String.init) ?? "?"
            let context = error?["n_ctx"]?.intValue.map(String.init) ?? "?"
            return .contextSizeExceeded(.init(debugDescription:
                "the server's context holds \(context) tokens but the prompt needs \(prompt) (\(message))"))
        }
        if code == "context_length_exceeded" || message.contains("maximum context length") {
            return .contextSizeExceeded(.init(debugDescription: "the server says: \(message)"))
        }
        return nil
    }
}
