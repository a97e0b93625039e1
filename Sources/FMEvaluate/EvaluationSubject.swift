import FMCore

/// An error an attempt ended in, as evaluators see it.
public struct SubjectError: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The error's case name (`contextSizeExceeded`, `concurrentRequests`, …), or nil for other errors.
    public var caseName: String?
    /// The error's message.
    public var message: String

    /// Creates a subject error.
    public init(caseName: String?, message: String) {
        self.caseName = caseName
        self.message = message
    }

    /// `caseName: message`, or the message alone.
    public var description: String { caseName.map { "\($0): \(message)" } ?? message }
}

/// Everything evaluators may read about one attempt; the runner fills it.
public struct EvaluationSubject: Codable, Sendable {
    /// The case's (last) prompt.
    public var prompt: String
    /// The instructions the session started with.
    public var instructions: String?
    /// The response text (for structured output, the raw generated JSON text).
    public var text: String?
    /// The structured response, when a schema was requested and the output parsed.
    public var content: GeneratedContent?
    /// The GenerationSchema the attempt requested.
    public var schema: GenerationSchema?
    /// The full transcript of the attempt.
    public var transcript: Transcript?
    /// Tool calls, tool outputs, instructions, prompts and responses, as Apple's evaluators read them.
    public var structuredTranscript: StructuredTranscript?
    /// Tokens used by the attempt, all engine calls together.
    public var usage: Usage
    /// Wall-clock time of the attempt in milliseconds.
    public var latencyMilliseconds: Double
    /// Time until the first streamed snapshot, in milliseconds (nil when there was none).
    public var timeToFirstSnapshotMilliseconds: Double?
    /// The error the attempt ended in, if any.
    public var error: SubjectError?
    /// How many streamed snapshots the attempt produced (a tool-only turn yields zero).
    public var snapshotCount: Int
    /// Whether `maximumResponseTokens` cut the response.
    public var truncated: Bool

    /// Creates a subject; the structured transcript defaults to the one derived from `transcript`.
    public init(prompt: String, instructions: String? = nil, text: String? = nil, content: GeneratedContent? = nil,
                schema: GenerationSchema? = nil, transcript: Transcript? = nil,
                structuredTranscript: StructuredTranscript? = nil, usage: Usage = Usage(),
                latencyMilliseconds: Double = 0, timeToFirstSnapshotMilliseconds: Double? = nil,
                error: SubjectError? = nil, snapshotCount: Int = 0, truncated: Bool = false) {
        self.prompt = prompt
        self.instructions = instructions
        self.text = text
        self.content = content
        self.schema = schema
        self.transcript = transcript
        self.structuredTranscript = structuredTranscript ?? transcript.map { StructuredTranscript($0) }
        self.usage = usage
        self.latencyMilliseconds = latencyMilliseconds
        self.timeToFirstSnapshotMilliseconds = timeToFirstSnapshotMilliseconds
        self.error = error
        self.snapshotCount = snapshotCount
        self.truncated = truncated
    }

    /// The output as evaluators compare it: the structure when there is one, else the text as a string.
    public var output: GeneratedContent? {
        if let content { return content }
        return text.map { GeneratedContent($0) }
    }

    /// The output as text: the response text, else the structure's JSON.
    public var outputText: String? {
        if let text { return text }
        return content?.jsonString
    }
}
