import FMCore

/// Reading cassettes from JSON values directly: the fast JSON parser plus these readers load a
/// 10,000-entry cassette in a fraction of the time `JSONDecoder` takes. Errors name the JSON path.
extension Cassette {
    /// Reads `{"cassette", "engine", "entries"}`.
    init(content: GeneratedContent) throws {
        let version = try field(content, "cassette", at: "").intValue
        guard let version else { throw CassetteFormatError(path: "/cassette", message: "expected the format version as an integer") }
        let engine = try field(content, "engine", at: "")
        guard let entries = try field(content, "entries", at: "").arrayValue else {
            throw CassetteFormatError(path: "/entries", message: "expected an array of recorded calls")
        }
        self.init(engine: EngineIdentity(name: try string(engine, "name", at: "/engine"), model: try string(engine, "model", at: "/engine"),
                                         modelHash: engine["modelHash"]?.stringValue),
                  entries: try entries.enumerated().map { try CassetteEntry(content: $0.element, at: "/entries/\($0.offset)") })
        cassette = version
    }
}

extension CassetteEntry {
    /// Reads one recorded call at JSON path `path`.
    init(content: GeneratedContent, at path: String) throws {
        let events = try (content["events"]?.arrayValue ?? []).enumerated().map { index, event in
            try EngineEvent(content: event, at: "\(path)/events/\(index)")
        }
        var error: LanguageModelError?
        if let recorded = content["error"], !recorded.isNull {
            let name = try string(recorded, "case", at: "\(path)/error")
            error = LanguageModelError(caseName: name, debugDescription: recorded["debugDescription"]?.stringValue ?? "")
            if error == nil { throw CassetteFormatError(path: "\(path)/error/case", message: "unknown LanguageModelError case '\(name)'") }
        }
        var response: EngineResponse?
        if let recorded = content["response"], !recorded.isNull {
            response = try EngineResponse(content: recorded, at: "\(path)/response")
        }
        self.init(key: try string(content, "key", at: path), request: try field(content, "request", at: path),
                  events: events, response: response, error: error)
    }
}

extension EngineEvent {
    /// Reads `{"textDelta"}`, `{"partialStructure"}` or `{"toolCall"}` at JSON path `path`.
    init(content: GeneratedContent, at path: String) throws {
        if let text = content["textDelta"]?.stringValue {
            self = .textDelta(text)
        } else if let partial = content["partialStructure"] {
            self = .partialStructure(partial)
        } else if let call = content["toolCall"] {
            self = .toolCall(try ToolCall(content: call, at: "\(path)/toolCall"))
        } else {
            throw CassetteFormatError(path: path, message: "an event needs one of 'textDelta', 'partialStructure', 'toolCall'")
        }
    }
}

extension EngineResponse {
    /// Reads `{"text", "content"?, "toolCalls", "finishReason", "usage", "grammarLimits"?}` at JSON path `path`.
    init(content: GeneratedContent, at path: String) throws {
        let reason = try string(content, "finishReason", at: path)
        guard let finish = FinishReason(rawValue: reason) else {
            throw CassetteFormatError(path: "\(path)/finishReason", message: "unknown finish reason '\(reason)'; use stop, length or toolCalls")
        }
        let calls = try (content["toolCalls"]?.arrayValue ?? []).enumerated().map { index, call in
            try ToolCall(content: call, at: "\(path)/toolCalls/\(index)")
        }
        let usage = content["usage"]
        func count(_ key: String) -> Int { usage?[key]?.intValue ?? 0 }
        self.init(text: content["text"]?.stringValue ?? "", content: content["content"].flatMap { $0.isNull ? nil : $0 },
                  toolCalls: calls, finishReason: finish,
                  usage: Usage(inputTokens: count("inputTokens"), cachedInputTokens: count("cachedInputTokens"),
                               outputTokens: count("outputTokens"), reasoningTokens: count("reasoningTokens")))
        grammarLimits = content["grammarLimits"]?.arrayValue?.compactMap(GrammarLimitCut.init(content:))
    }
}

/// A cassette that does not have the documented shape: where and what.
struct CassetteFormatError: Error, CustomStringConvertible {
    let path: String
    let message: String

    var description: String { "at \(path.isEmpty ? "/" : path): \(message)" }

    /// The JSON pointer of the value holding `path` (a missing key has no location of its own).
    var parent: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "" }
}

private func field(_ content: GeneratedContent, _ key: String, at path: String) throws -> GeneratedContent {
    guard let value = content[key] else { throw CassetteFormatError(path: path, message: "missing key '\(key)'") }
    return value
}

private func string(_ content: GeneratedContent, _ key: String, at path: String) throws -> String {
    guard let value = try field(content, key, at: path).stringValue else {
        throw CassetteFormatError(path: "\(path)/\(key)", message: "expected a string")
    }
    return value
}
