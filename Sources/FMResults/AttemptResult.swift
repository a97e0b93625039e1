import FMCore
import FMEvaluate

/// One attempt of a case: a single greedy (or sampled) run through a session, and its scores.
public struct AttemptResult: Codable, Sendable {
    /// 0-based attempt number within the case.
    public var index: Int
    /// passed, failed or error.
    public var status: AttemptOutcome
    /// The final response text (for a structured response, its JSON text).
    public var text: String?
    /// The final structured response, when a schema was requested and it parsed.
    public var output: GeneratedContent?
    /// Every entry of the session transcript, in Apple's Transcript JSON.
    public var transcript: Transcript
    /// Tokens over every engine call of the attempt.
    public var usage: Usage
    /// The evaluators' metrics, in expectation order.
    public var metrics: [Metric]
    /// Schema violations of the structured output (or of tool-call arguments) against their schemas.
    public var violations: [Violation]
    /// The error that ended the attempt, when one did.
    public var error: AttemptError?
    /// Wall-clock milliseconds of the session (evaluation excluded).
    public var durationMs: Double
    /// Whether `maximumResponseTokens` cut a response.
    public var truncated: Bool
    /// Streaming snapshots observed for the final response (0 for tool-only turns).
    public var snapshotCount: Int
    /// Engine calls made (one per model turn, tool loop included).
    public var engineCalls: Int
    /// Retries a retryable infrastructure failure took (nil: none; older results lack it).
    public var retries: Int?
    /// Where the grammar's loop guards cut the model's choices (nil: nowhere; older results lack it).
    public var grammarLimits: [GrammarLimitCut]?
    /// What the instructions, tools, schema and prompts cost in tokens (nil: not counted; older results lack it).
    public var tokenCounts: PromptTokenCounts?
    /// The sampling seed of a `reproduce` attempt (nil: greedy, or not a reproduce case; older results lack it).
    public var seed: Int?
    /// The wording of a `reproduce` attempt: 0 the case's prompt, i its paraphrase i (nil: not a reproduce case).
    public var paraphrase: Int?
    /// The index of the earlier attempt of this case whose identical greedy request answered this one
    /// instead of the engine (nil: the engine answered; older results lack it).
    public var reusedFrom: Int?
    /// Prefill and decode time the engine reported over the attempt's calls (nil: none; older results lack it).
    public var timings: EngineTimings?
    /// Milliseconds spent running the attempt's tool calls (nil: it called no tool; older results lack it).
    public var toolMs: Double?

    /// Creates an attempt result.
    public init(index: Int, status: AttemptOutcome, text: String? = nil, output: GeneratedContent? = nil,
                transcript: Transcript, usage: Usage = Usage(), metrics: [Metric] = [], violations: [Violation] = [],
                error: AttemptError? = nil, durationMs: Double = 0, truncated: Bool = false, snapshotCount: Int = 0,
                engineCalls: Int = 0, retries: Int? = nil) {
        self.index = index
        self.status = status
        self.text = text
        self.output = output
        self.transcript = transcript
        self.usage = usage
        self.metrics = metrics
        self.violations = violations
        self.error = error
        self.durationMs = durationMs
        self.truncated = truncated
        self.snapshotCount = snapshotCount
        self.engineCalls = engineCalls
        self.retries = retries
    }
}

/// An error recorded on an attempt: which kind, which case of it, and the full message.
public struct AttemptError: Codable, Hashable, Sendable, Error {
    /// The error family: `LanguageModelError`, `LanguageModelSession.Error`, `SessionError`,
    /// `GeneratedContent.ParsingError`, `ReplayMiss`, `ScriptError`, `ChildProcessError`, `EngineError`, `EvaluatorError`
    /// (docs/results-format.md).
    public var domain: String
    /// The case name within the family (for example `contextSizeExceeded`).
    public var caseName: String
    /// What happened and what to do.
    public var message: String
    /// Whether an `error` expectation expected it (then the attempt can still pass).
    public var expected: Bool
    /// Whose fault it was, as `class` in JSON (nil in results written before it was recorded).
    public var failureClass: FailureClass?

    private enum CodingKeys: String, CodingKey { case domain, caseName, message, expected, failureClass = "class" }

    /// Creates an attempt error.
    public init(domain: String, caseName: String, message: String, expected: Bool = false, failureClass: FailureClass? = nil) {
        self.domain = domain
        self.caseName = caseName
        self.message = message
        self.expected = expected
        self.failureClass = failureClass
    }
}
