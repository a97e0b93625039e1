import FMCore

/// A session that already happened: a transcript recorded on a device (or by Apple's Python SDK),
/// returned as the record of the attempt without running any model.
///
/// The final response is the last `response` entry: its text (a structure as its JSON) and, when it
/// holds a structure segment, that structure's content. Each prompt is a turn; the tool calls of a
/// turn are counted on it, and usage comes from a `usage` object ({inputTokens, outputTokens, …}) that
/// a response entry carries, directly or in its `metadata`, when the device recorded one.
public struct RecordedSessionDriver: SessionDriver {
    /// The recorded transcript.
    public let transcript: Transcript

    /// A driver that replays `transcript`.
    public init(transcript: Transcript) { self.transcript = transcript }

    /// The record of the transcript; `plan` is not consulted, since the session already ran.
    public func run(_ plan: SessionPlan) throws -> SessionRecord {
        SessionRecord(transcript: transcript, text: finalResponse.map(Self.text(of:)), content: finalResponse.flatMap(Self.structure(of:)),
                      turns: turns, turnOffsetsMs: Array(repeating: 0, count: turns.count))
    }

    /// The last response entry, if the model answered.
    private var finalResponse: Transcript.Response? {
        for entry in transcript.entries.reversed() {
            if case .response(let response) = entry { return response }
        }
        return nil
    }

    /// One `TurnStats` per prompt (entries before the first prompt count toward it): engine calls are
    /// the responses and tool-call entries, tool calls the calls made.
    private var turns: [TurnStats] {
        var turns: [TurnStats] = []
        for entry in transcript.entries {
            if case .prompt = entry { turns.append(TurnStats()) }
            if turns.isEmpty, case .instructions = entry { continue }
            if turns.isEmpty { turns.append(TurnStats()) }
            switch entry {
            case .response(let response):
                turns[turns.count - 1].engineCalls += 1
                if let usage = Self.usage(in: response.additionalFields) { turns[turns.count - 1].usage += usage }
            case .toolCalls(let calls):
                turns[turns.count - 1].engineCalls += 1
                turns[turns.count - 1].toolCalls += calls.calls.count
                if let usage = Self.usage(in: calls.additionalFields) { turns[turns.count - 1].usage += usage }
            case .instructions, .prompt, .reasoning, .toolOutput:
                break
            }
        }
        return turns
    }

    private static func text(of response: Transcript.Response) -> String {
        response.segments.map(\.text).joined(separator: "\n")
    }

    private static func structure(of response: Transcript.Response) -> GeneratedContent? {
        for segment in response.segments {
            if case .structure(let structure) = segment { return structure.content }
        }
        return nil
    }

    /// A `usage` member (directly or inside `metadata`) whose counts are non-negative integers.
    static func usage(in fields: [String: GeneratedContent]) -> Usage? {
        guard let usage = fields["usage"] ?? fields["metadata"]?["usage"], usage.orderedProperties != nil else { return nil }
        func count(_ key: String) -> Int? {
            guard let value = usage[key] else { return 0 }
            guard let number = value.intValue, number >= 0 else { return nil }
            return number
        }
        guard let input = count("inputTokens"), let cached = count("cachedInputTokens"),
              let output = count("outputTokens"), let reasoning = count("reasoningTokens") else { return nil }
        return Usage(inputTokens: input, cachedInputTokens: cached, outputTokens: output, reasoningTokens: reasoning)
    }
}
