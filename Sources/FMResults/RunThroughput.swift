import FMCore

/// Throughput figures of a finished run, computed from its results alone (`fmeval bench suite`):
/// case rate, prefill and decode speed from the engine's timings, where the wall time went, the
/// input-token cache hit rate, and a digest of every answer so that two runs can be shown to have given
/// identical results.
public struct RunThroughput: Codable, Hashable, Sendable {
    /// Cases run.
    public var cases: Int
    /// Attempts over all cases.
    public var attempts: Int
    /// Attempts answered from an identical earlier attempt instead of the engine.
    public var reusedAttempts: Int
    /// The run's wall-clock seconds.
    public var wallSeconds: Double
    /// `cases / wallSeconds` (0 for an instant run).
    public var casesPerSecond: Double
    /// Input tokens over the attempts the engine answered.
    public var inputTokens: Int
    /// Of those, tokens served from the engine's prompt cache.
    public var cachedInputTokens: Int
    /// `cachedInputTokens / inputTokens`; nil when no input tokens were counted.
    public var cacheHitRate: Double?
    /// Tokens generated over the attempts the engine answered.
    public var outputTokens: Int
    /// Prompt tokens the engine processed, per its timings.
    public var prefillTokens: Int
    /// Engine seconds spent on them (per request, summed: concurrent requests overlap).
    public var prefillSeconds: Double
    /// `prefillTokens / prefillSeconds`; nil when the engine reported no timings.
    public var prefillTokensPerSecond: Double?
    /// Tokens generated, per the engine's timings.
    public var decodeTokens: Int
    /// Engine seconds spent generating them (per request, summed).
    public var decodeSeconds: Double
    /// `decodeTokens / decodeSeconds`; nil when the engine reported no timings.
    public var decodeTokensPerSecond: Double?
    /// Of `prefillSeconds` and `decodeSeconds`, the grammar's masks (nil: the engine does not measure them).
    public var maskSeconds: Double?
    /// Seconds building grammars before prefill (nil: the engine does not measure it).
    public var grammarSeconds: Double?
    /// Generated tokens the grammar allowed alone (chosen without logits; nil: not counted).
    public var forcedTokens: Int?
    /// Draft tokens fed to check several choices a step, and those the choices matched (nil: no drafts).
    public var draftTokens: Int?, acceptedDraftTokens: Int?
    /// Seconds running tools.
    public var toolSeconds: Double
    /// The wall time none of those account for (planning, templates and tokenizing, parsing, scoring,
    /// writing results): the wall less prefill, decode, grammar and tools; nil when cases ran
    /// concurrently (their times overlap) or the engine reported no timings.
    public var harnessSeconds: Double?
    /// Cases per status: passed, failed, flaky, error, known issues.
    public var passed: Int, failed: Int, flaky: Int, errored: Int, knownIssues: Int
    /// Hex SHA-256 over every attempt's answer (case id, attempt index, text, tool calls, error case) in
    /// case-id order: equal digests mean the two runs answered identically.
    public var answersSHA256: String

    /// The figures of `run`, whose cases ran `jobs` at a time.
    public init(_ run: RunResult, jobs: Int) {
        let summary = run.summary
        cases = summary.total
        attempts = summary.attempts
        reusedAttempts = summary.reusedAttempts
        wallSeconds = (run.run.durationMs ?? 0) / 1000
        casesPerSecond = wallSeconds > 0 ? Double(cases) / wallSeconds : 0
        inputTokens = summary.inputTokens
        cachedInputTokens = summary.cachedInputTokens
        cacheHitRate = summary.cacheHitRate
        let computed = run.cases.flatMap(\.attempts).filter { $0.reusedFrom == nil }
        outputTokens = computed.reduce(0) { $0 + $1.usage.outputTokens }
        let timings = computed.compactMap(\.timings).reduce(EngineTimings(), +)
        prefillTokens = timings.prefillTokens
        prefillSeconds = timings.prefillMs / 1000
        prefillTokensPerSecond = timings.prefillMs > 0 ? Double(timings.prefillTokens) / prefillSeconds : nil
        decodeTokens = timings.decodeTokens
        decodeSeconds = timings.decodeMs / 1000
        decodeTokensPerSecond = timings.decodeMs > 0 ? Double(timings.decodeTokens) / decodeSeconds : nil
        maskSeconds = timings.maskMs.map { $0 / 1000 }
        grammarSeconds = timings.grammarMs.map { $0 / 1000 }
        forcedTokens = timings.forcedTokens
        draftTokens = timings.draftTokens
        acceptedDraftTokens = timings.acceptedDraftTokens
        toolSeconds = computed.compactMap(\.toolMs).reduce(0, +) / 1000
        let accounted = prefillSeconds + decodeSeconds + (grammarSeconds ?? 0) + toolSeconds
        harnessSeconds = jobs == 1 && timings.prefillMs + timings.decodeMs > 0 ? wallSeconds - accounted : nil
        passed = summary.passed
        failed = summary.failed
        flaky = summary.flaky
        errored = summary.errored
        knownIssues = summary.knownIssues
        answersSHA256 = RunThroughput.answersDigest(run.cases)
    }

    /// The digest of `answersSHA256`.
    public static func answersDigest(_ cases: [CaseResult]) -> String {
        var lines: [String] = []
        for result in cases.sorted(by: { $0.id < $1.id }) {
            for attempt in result.attempts {
                let calls = StructuredTranscript(attempt.transcript).toolCalls.map { "\($0.name)\($0.arguments.jsonString)" }
                lines.append([result.id, String(attempt.index), attempt.output?.jsonString ?? attempt.text ?? "",
                              calls.joined(separator: ";"), attempt.error?.caseName ?? ""].joined(separator: "\u{1F}"))
            }
        }
        return SHA256.hex(of: Array(lines.joined(separator: "\n").utf8))
    }
}
