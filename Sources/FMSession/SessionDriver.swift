import FMCore

/// Runs one attempt's session: every prompt turn through a model and its tool loop, to a transcript.
///
/// The default, `EngineSessionDriver`, is fmeval's `LanguageModelSession` over a `LanguageModelEngine`.
/// A backend that owns its tool loop (Apple's session on a Mac, a server-side agent) supplies its own;
/// the runner scores whatever transcript and response it returns with the same evaluators.
public protocol SessionDriver {
    /// Runs `plan` to the end. Throws `SessionDriverFailure` (the classified error and what was
    /// recorded before it); any other thrown error counts as one with nothing recorded.
    func run(_ plan: SessionPlan) throws -> SessionRecord
}

/// What one attempt's session is made of: the set-up (instructions, tools and how to call them,
/// options, schema, channel settings) and the prompt turns, in order. Hashable over every field, so
/// that two equal plans are one request (the key of repeat reuse).
public struct SessionPlan: Hashable, Sendable {
    /// Instructions, tools, options, schema, constraint and prompt channels, limits.
    public var configuration: SessionConfiguration
    /// The prompts, one per turn.
    public var turns: [String]
    /// Attachments (images) of the first turn's prompt, after its text.
    public var attachments: [Transcript.AttachmentSegment]
    /// Changes to the transcript's history made before a turn, keyed by the 0-based turn index.
    public var edits: [Int: TranscriptEdit] = [:]

    /// Creates a plan.
    public init(configuration: SessionConfiguration, turns: [String], attachments: [Transcript.AttachmentSegment] = []) {
        self.configuration = configuration
        self.turns = turns
        self.attachments = attachments
    }
}

/// What a session left: its transcript, the final response, and counters per turn.
public struct SessionRecord: Sendable {
    /// Every entry, instructions first.
    public var transcript: Transcript
    /// The final response text (for a structure, its JSON text); after a failure, the raw last response if any.
    public var text: String?
    /// The final structured response, when a schema was requested and it parsed.
    public var content: GeneratedContent?
    /// Counters of each turn that started, in order (the failed turn's included).
    public var turns: [TurnStats]
    /// Milliseconds from the session's start to each turn's start, parallel to `turns`.
    public var turnOffsetsMs: [Double]
    /// What the instructions, tools, schema and prompts cost in tokens (nil: the driver did not count).
    public var tokenCounts: PromptTokenCounts?

    /// Creates a record.
    public init(transcript: Transcript = Transcript(), text: String? = nil, content: GeneratedContent? = nil,
                turns: [TurnStats] = [], turnOffsetsMs: [Double] = []) {
        self.transcript = transcript
        self.text = text
        self.content = content
        self.turns = turns
        self.turnOffsetsMs = turnOffsetsMs
    }

    /// The record of turn `count` and those after it, as if the session had started there: the transcript
    /// keeps its instructions and the entries from that turn's prompt on, and the counters and offsets of
    /// the earlier turns are dropped (offsets then count from that turn's start). No turn is left when the
    /// session ended before turn `count` started. The token counts stay the whole session's.
    public func droppingFirstTurns(_ count: Int) -> SessionRecord {
        guard count > 0 else { return self }
        var record = self
        let history = transcript.history
        let prompts = history.indices.filter { TranscriptEdit.EntryKind(history[$0]) == .prompt }
        record.transcript.history = count < prompts.count ? Array(history[prompts[count]...]) : []
        record.turns = Array(turns.dropFirst(count))
        let start = count < turnOffsetsMs.count ? turnOffsetsMs[count] : 0
        record.turnOffsetsMs = turnOffsetsMs.dropFirst(count).map { $0 - start }
        if record.turns.isEmpty { (record.text, record.content) = (nil, nil) }
        return record
    }

    /// The counters over every turn (first-snapshot time measured from the session's start).
    public var totals: TurnStats {
        var total = TurnStats()
        for (index, turn) in turns.enumerated() {
            total.accumulate(turn, offsetMs: index < turnOffsetsMs.count ? turnOffsetsMs[index] : 0)
        }
        return total
    }
}

/// A session that ended in an error: the error (classified as it classifies itself) and the partial record.
public struct SessionDriverFailure: ClassifiedError {
    /// The error that ended the session.
    public var underlying: Error
    /// What was recorded up to the error.
    public var partial: SessionRecord

    /// Creates a failure.
    public init(_ underlying: Error, partial: SessionRecord) {
        self.underlying = underlying
        self.partial = partial
    }

    /// The underlying error's class.
    public var failureClass: FailureClass { FailureClass.of(underlying) }
    /// The underlying error's domain (`EngineError` for an unclassified one).
    public var domain: String { (underlying as? ClassifiedError)?.domain ?? "EngineError" }
    /// The underlying error's case name (`engineError` for an unclassified one).
    public var caseName: String { (underlying as? ClassifiedError)?.caseName ?? "engineError" }
    /// The underlying error's message.
    public var failureMessage: String { (underlying as? ClassifiedError)?.failureMessage ?? "\(underlying)" }
    /// The underlying error's Retry-After.
    public var retryAfterSeconds: Double? { (underlying as? ClassifiedError)?.retryAfterSeconds }
}
