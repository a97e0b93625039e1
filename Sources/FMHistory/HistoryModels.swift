import FMEvaluate

/// One recorded run, as `fmeval history runs` lists it.
public struct HistoryRun: Codable, Equatable, Sendable {
    /// The run's number in this history (increasing with each save; `history:NUMBER`).
    public var number: Int
    /// The results file's run id (UUID).
    public var runID: String
    /// Start time, ISO 8601 UTC.
    public var startedAt: String
    /// Wall-clock milliseconds, when the run finished.
    public var durationMs: Double?
    /// The git commit of the working directory, when it was a git work tree.
    public var commit: String?
    /// The checked-out git branch (nil outside a work tree or on a detached HEAD).
    public var branch: String?
    /// The default engine (`name model`).
    public var engine: String
    /// The `--shard I/N`, when the run was one shard.
    public var shard: String?
    /// Cases run.
    public var total: Int
    /// Cases that passed.
    public var passed: Int
    /// Cases that failed their gate.
    public var failed: Int
    /// Flaky cases (gate held).
    public var flaky: Int
    /// Cases in error.
    public var errored: Int
    /// Known issues that still reproduce.
    public var knownIssues: Int
    /// Cases that fail the run.
    public var gatesFailed: Int

    /// Cases whose gate holds over cases run (`PassRate`; 0 for an empty run).
    public var passRate: Double
    /// The commit's first 8 characters, or `-`.
    public var shortCommit: String { commit.map { String($0.prefix(8)) } ?? "-" }
}

/// One case's result in one run.
public struct TrendPoint: Codable, Equatable, Sendable {
    /// The run's number.
    public var run: Int
    /// The run's start time.
    public var startedAt: String
    /// The run's git commit, when known.
    public var commit: String?
    /// The case's status in that run.
    public var status: CaseStatus
    /// Whether the case failed the run (failed, error, or a known issue that no longer reproduces).
    public var failsRun: Bool
    /// Passes over evaluated attempts.
    public var passRate: Double
    /// The case definition's hash when it ran.
    public var definition: String?
}

/// `fmeval history trend CASE`: a case's status per run, oldest first.
public struct CaseTrend: Codable, Equatable, Sendable {
    /// The stable case id.
    public var caseID: String
    /// One point per run that ran the case, oldest first.
    public var points: [TrendPoint]
    /// The latest run in which the case held its gate.
    public var lastPass: TrendPoint?
    /// When the latest run fails the case: the first failing run after the last pass (the first run
    /// when it never passed); nil when the latest run holds.
    public var failingSince: TrendPoint?

    /// Runs that held the case over runs that ran it.
    public var passRate: Double

    /// The trend of `caseID` over `points` (oldest first).
    public init(caseID: String, points: [TrendPoint]) {
        self.caseID = caseID
        self.points = points
        passRate = points.isEmpty ? 0 : Double(points.filter { !$0.failsRun }.count) / Double(points.count)
        let lastPassIndex = points.lastIndex { !$0.failsRun }
        lastPass = lastPassIndex.map { points[$0] }
        if let latest = points.last, latest.failsRun {
            failingSince = points[(lastPassIndex.map { $0 + 1 } ?? 0)...].first { $0.failsRun }
        }
    }

    /// True when the case fails now after having passed in an earlier run.
    public var isRegression: Bool { failingSince != nil && lastPass != nil }
}

/// `fmeval history flips A B`: a case whose status differs between two runs.
public struct StatusFlip: Codable, Equatable, Sendable {
    /// The stable case id.
    public var caseID: String
    /// Its status in the first run.
    public var before: CaseStatus
    /// Its status in the second run.
    public var after: CaseStatus
    /// `regression` (held, now fails the run), `fixed` (failed, now holds) or `changed` (both hold or both fail).
    public var direction: String
}

/// `fmeval history flaky`: a case whose status changed between runs while its definition did not.
public struct FlakyCase: Codable, Equatable, Sendable {
    /// The stable case id.
    public var caseID: String
    /// Runs (of the window) that ran the case.
    public var runs: Int
    /// Status changes between consecutive runs with the same definition hash.
    public var changes: Int
    /// Its statuses, oldest first.
    public var statuses: [CaseStatus]

    /// Changes over the transitions observed (0 with fewer than two runs).
    public var flipRate: Double
}

/// One suite's (or suite variant's) pass rate in one run.
public struct SuiteRatePoint: Codable, Equatable, Sendable {
    /// The run's number.
    public var run: Int
    /// The run's start time.
    public var startedAt: String
    /// Cases of the suite in the run.
    public var cases: Int
    /// Cases whose gate held (`PassRate.passes`, recorded as `gate_holds`).
    public var holding: Int

    /// Holding cases over cases (`PassRate`).
    public var rate: Double
}

/// `fmeval history suites`: a suite's pass rate per run, oldest first.
public struct SuitePassRate: Codable, Equatable, Sendable {
    /// `suite`, or `suite@variant`.
    public var suite: String
    /// One point per run that ran the suite, oldest first.
    public var points: [SuiteRatePoint]
}
