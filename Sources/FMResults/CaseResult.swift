import FMCore
import FMEvaluate

/// The outcome of one case (× variant) over all its attempts.
public struct CaseResult: Codable, Sendable {
    /// Stable id: `suite/case` or `suite/case@variant`; used by resume, baselines and sharding.
    public var id: String
    /// The suite name.
    public var suite: String
    /// The case id within its suite.
    public var caseID: String
    /// The variant name, or nil for the base configuration.
    public var variant: String?
    /// The case's tags.
    public var tags: [String]
    /// The suite file the case came from, as `file:line`.
    public var source: String?
    /// The engine that ran the case.
    public var engine: EngineIdentity?
    /// passed, failed, flaky, error or knownIssue (see docs/results-format.md for the rules).
    public var status: CaseStatus
    /// Attempts that passed.
    public var passes: Int
    /// Passes over evaluated (non-error) attempts; 0 when none were evaluated.
    public var passRate: Double
    /// Wilson 95 % score interval of the pass rate.
    public var interval: WilsonInterval
    /// The gate applied (neither bound set: every attempt must pass).
    public var gate: CaseGate
    /// Whether the gate holds.
    public var gateHolds: Bool
    /// One line saying why the status is what it is.
    public var reason: String
    /// The known issue the suite declares for this case (suite, variant or case `knownIssue:`), if any.
    public var knownIssue: KnownIssue?
    /// Every attempt, in order.
    public var attempts: [AttemptResult]
    /// The determinism check's verdict, when `--check-determinism` reran this case.
    public var determinism: DeterminismResult?
    /// The contamination check's verdict, when the case's `contamination` option reran it in a reused session.
    public var contamination: ContaminationResult?
    /// For enum cases: the expected label (feeds the classification summary).
    public var expectedLabel: String?
    /// Wall-clock milliseconds over all attempts.
    public var durationMs: Double
    /// Hex SHA-256 of the case's definition when it ran (see docs/results-format.md); `--resume` and
    /// `--retry-errors` keep this result only while the suites still define the case the same way.
    public var definition: String?
    /// For a `reproduce` case: attempts that failed (reproduced the bug) out of those evaluated, with
    /// the Wilson 95 % interval (nil for other cases; older results lack it).
    public var reproduction: Reproduction?
    /// The suite's bug report and what reproduces it (`source`, `reproducedWith`, `summary`); nil when not given.
    public var origin: SuiteOrigin?

    /// Creates a case result whose status, pass rate, interval and gate verdict come from `attempts`;
    /// with `measuresReproduction`, also its reproduction rate.
    public init(id: String, suite: String, caseID: String, variant: String? = nil, tags: [String] = [],
                source: String? = nil, engine: EngineIdentity? = nil, gate: CaseGate = CaseGate(),
                knownIssue: KnownIssue? = nil, attempts: [AttemptResult], determinism: DeterminismResult? = nil,
                expectedLabel: String? = nil, durationMs: Double, definition: String? = nil,
                measuresReproduction: Bool = false, origin: SuiteOrigin? = nil) {
        let verdict = CaseVerdict(outcomes: attempts.map(\.status), gate: gate, knownIssue: knownIssue,
                                  uncovered: knownIssue.flatMap { CaseResult.uncoveredFailure(of: attempts, by: $0) })
        self.id = id
        self.suite = suite
        self.caseID = caseID
        self.variant = variant
        self.tags = tags
        self.source = source
        self.engine = engine
        self.status = verdict.status
        self.passes = verdict.passes
        self.passRate = verdict.passRate
        self.interval = verdict.interval
        self.gate = gate
        self.gateHolds = verdict.gateHolds
        self.reason = verdict.reason
        self.knownIssue = knownIssue
        self.attempts = attempts
        self.determinism = determinism
        self.expectedLabel = expectedLabel
        self.durationMs = durationMs
        self.definition = definition
        self.reproduction = measuresReproduction ? Reproduction(outcomes: attempts.map(\.status)) : nil
        self.origin = origin
    }

    /// The first failing attempt's failure that `issue` does not cover, as `METRIC (attempt N: rationale)`;
    /// nil when it covers every failing attempt.
    static func uncoveredFailure(of attempts: [AttemptResult], by issue: KnownIssue) -> String? {
        for attempt in attempts where attempt.status == .failed {
            let failing = attempt.metrics.failingMetrics
            guard let name = issue.uncoveredFailure(errorName: attempt.error?.caseName, failingMetrics: failing.map(\.name)) else {
                continue
            }
            let rationale = failing.first { $0.name == name }?.rationale.map { ": " + $0 } ?? ""
            return "\(name) (attempt \(attempt.index + 1)\(rationale))"
        }
        return nil
    }

    /// Whether the case fails its gate for the run: an error, a gate that does not hold (unless a known
    /// issue expects that), or a known issue that no longer reproduces. A flaky case holds its gate.
    public var failsRun: Bool {
        switch status {
        case .knownIssue: return false
        case .failed, .error: return true
        case .passed, .flaky: return !gateHolds
        }
    }

    /// True when a `--check-determinism` rerun of this case diverged.
    public var diverged: Bool { determinism?.diverged == true }

    /// True when the case's verdict changed in a session reused after other cases (`contamination`).
    public var historyDependent: Bool { contamination?.dependsOnHistory == true }

    /// What made a rerun of the case disagree with its run, one line each (`nondeterministic: …`,
    /// `history-dependent: …`); empty when nothing did. Each fails the run, like a gate.
    public var instabilities: [String] {
        var lines: [String] = []
        if diverged { lines.append("nondeterministic: " + (determinism?.detail ?? "a greedy rerun diverged")) }
        if historyDependent {
            lines.append("history-dependent: " + (contamination?.detail ?? "a reused session changed the verdict"))
        }
        return lines
    }

    /// True when the case counts as passing for the run's exit code: it does not fail the run (a known
    /// issue that still reproduces does not) and no rerun disagreed (`instabilities`). (Baselines and
    /// A/B compare gate verdicts only.)
    public var holdsRun: Bool { !failsRun && instabilities.isEmpty }

    /// The stable id of case `caseID` of `suite` under `variant`.
    public static func stableID(suite: String, caseID: String, variant: String?) -> String {
        variant.map { "\(suite)/\(caseID)@\($0)" } ?? "\(suite)/\(caseID)"
    }
}

/// Why a case was not run: a fact that code reads, while `SkippedCase.reason` is only its display text.
public enum SkipCause: Hashable, Sendable {
    /// `--filter EXPRESSION` selected it out.
    case filteredOut(expression: String)
    /// `--fail-fast` stopped the run after the case `trigger` (its stable id) failed.
    case failFast(trigger: String)
    /// Read from a results file written before causes were recorded: only the reason text is known.
    case unrecorded

    /// The reason as people read it (`skipped[].reason` in the results).
    public var reason: String? {
        switch self {
        case .filteredOut(let expression): return "selected out by --filter \(expression)"
        case .failFast(let trigger): return "not run: --fail-fast stopped the run after \(trigger) failed"
        case .unrecorded: return nil
        }
    }
}

/// A case that was not run (selected out by `--filter`, or left by `--fail-fast`), listed so reports can
/// show it as skipped.
public struct SkippedCase: Codable, Hashable, Sendable {
    /// Stable id, as on `CaseResult`.
    public var id: String
    /// The suite name.
    public var suite: String
    /// The case id within its suite.
    public var caseID: String
    /// The variant name, or nil for the base configuration.
    public var variant: String?
    /// The case's tags.
    public var tags: [String]
    /// Why it was not run.
    public var cause: SkipCause
    /// Why it was not run, as display text (derived from `cause`; kept as read for older files).
    public var reason: String

    /// Creates a skipped-case entry.
    public init(id: String, suite: String, caseID: String, variant: String?, tags: [String], cause: SkipCause) {
        self.id = id
        self.suite = suite
        self.caseID = caseID
        self.variant = variant
        self.tags = tags
        self.cause = cause
        self.reason = cause.reason ?? ""
    }

    private enum CodingKeys: String, CodingKey { case id, suite, caseID, variant, tags, reason, cause, filter, trigger }

    /// Decodes the entry; `cause` (`filter` with `filter`, `failFast` with `trigger`) is absent in older files.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        suite = try container.decode(String.self, forKey: .suite)
        caseID = try container.decode(String.self, forKey: .caseID)
        variant = try container.decodeIfPresent(String.self, forKey: .variant)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        reason = try container.decodeIfPresent(String.self, forKey: .reason) ?? ""
        switch try container.decodeIfPresent(String.self, forKey: .cause) {
        case "filter"?: cause = .filteredOut(expression: try container.decode(String.self, forKey: .filter))
        case "failFast"?: cause = .failFast(trigger: try container.decode(String.self, forKey: .trigger))
        case nil: cause = .unrecorded
        case let other?:
            throw DecodingError.dataCorruptedError(forKey: .cause, in: container,
                                                   debugDescription: "unknown skip cause '\(other)'; expected filter or failFast")
        }
    }

    /// Encodes the entry with its cause as `cause` and the cause's datum.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(suite, forKey: .suite)
        try container.encode(caseID, forKey: .caseID)
        try container.encodeIfPresent(variant, forKey: .variant)
        try container.encode(tags, forKey: .tags)
        try container.encode(reason, forKey: .reason)
        switch cause {
        case .filteredOut(let expression):
            try container.encode("filter", forKey: .cause)
            try container.encode(expression, forKey: .filter)
        case .failFast(let trigger):
            try container.encode("failFast", forKey: .cause)
            try container.encode(trigger, forKey: .trigger)
        case .unrecorded:
            break
        }
    }
}

/// The result of rerunning a greedy case's attempts under `--check-determinism`.
public struct DeterminismResult: Codable, Hashable, Sendable {
    /// Whether any rerun produced a different output or tool trajectory from its original.
    public var diverged: Bool
    /// The first attempt index whose rerun diverged.
    public var attempt: Int?
    /// The original and rerun outputs, and where they first differ.
    public var detail: String?

    /// Creates a determinism verdict.
    public init(diverged: Bool, attempt: Int? = nil, detail: String? = nil) {
        self.diverged = diverged
        self.attempt = attempt
        self.detail = detail
    }
}

/// The classification summary of one suite (and variant) whose cases expect enum labels.
public struct SuiteClassification: Codable, Sendable {
    /// The suite name.
    public var suite: String
    /// The variant name, or nil for the base configuration.
    public var variant: String?
    /// Confusion matrix, per-label precision/recall, accuracy, out-of-enum rate.
    public var summary: ClassificationSummary

    /// Creates a suite classification.
    public init(suite: String, variant: String?, summary: ClassificationSummary) {
        self.suite = suite
        self.variant = variant
        self.summary = summary
    }
}
