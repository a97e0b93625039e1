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

    /// True when the case counts as passing for the run's exit code: it does not fail the run (a known
    /// issue that still reproduces does not) and no determinism rerun diverged. (Baselines and A/B
    /// compare gate verdicts only.)
    public var holdsRun: Bool { !failsRun && !diverged }

    /// The stable id of case `caseID` of `suite` under `variant`.
    public static func stableID(suite: String, caseID: String, variant: String?) -> String {
        variant.map { "\(suite)/\(caseID)@\($0)" } ?? "\(suite)/\(caseID)"
    }
}

/// A case that was selected out of the run (`--filter`), listed so reports can show it as skipped.
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
    public var reason: String

    /// Creates a skipped-case entry.
    public init(id: String, suite: String, caseID: String, variant: String?, tags: [String], reason: String) {
        self.id = id
        self.suite = suite
        self.caseID = caseID
        self.variant = variant
        self.tags = tags
        self.reason = reason
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
