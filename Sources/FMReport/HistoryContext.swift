import FMEvaluate

/// What the run history (docs/history.md) says about the cases of a report: each case's status over
/// the last runs, each suite's pass rate over time, and the regressions with the run they started in.
/// Plain values: the CLI reads them from the history database, so reports never link SQLite.
public struct HistoryContext: Sendable {
    /// One run of the history, as labels show it.
    public struct Run: Equatable, Sendable {
        /// The run's number in the history.
        public var number: Int
        /// Its start time, ISO 8601 UTC.
        public var startedAt: String
        /// Its git commit, when known.
        public var commit: String?

        /// A run with all of its parts.
        public init(number: Int, startedAt: String, commit: String?) {
            self.number = number
            self.startedAt = startedAt
            self.commit = commit
        }

        /// `#7 2026-11-30 3f2a9c1b`: the number, the day and the short commit.
        public var label: String {
            "#\(number) \(startedAt.prefix(10))" + (commit.map { " \($0.prefix(8))" } ?? "")
        }
    }

    /// A case's status in one run.
    public struct Mark: Equatable, Sendable {
        /// The run.
        public var run: Run
        /// The case's status there.
        public var status: CaseStatus

        /// A mark with all of its parts.
        public init(run: Run, status: CaseStatus) {
            self.run = run
            self.status = status
        }
    }

    /// A suite's pass rate in one run.
    public struct RatePoint: Equatable, Sendable {
        /// The run.
        public var run: Run
        /// Cases that held the run over cases run.
        public var rate: Double

        /// A point with all of its parts.
        public init(run: Run, rate: Double) {
            self.run = run
            self.rate = rate
        }
    }

    /// A suite's pass rate over the last runs.
    public struct SuiteSeries: Equatable, Sendable {
        /// `suite` or `suite@variant`.
        public var suite: String
        /// One point per run, oldest first.
        public var points: [RatePoint]

        /// A series with all of its parts.
        public init(suite: String, points: [RatePoint]) {
            self.suite = suite
            self.points = points
        }
    }

    /// A case that fails now after passing in an earlier recorded run.
    public struct Regression: Equatable, Sendable {
        /// The stable case id.
        public var caseID: String
        /// The first failing run after its last pass.
        public var since: Run
        /// The run it last passed in.
        public var lastPass: Run

        /// A regression with all of its parts.
        public init(caseID: String, since: Run, lastPass: Run) {
            self.caseID = caseID
            self.since = since
            self.lastPass = lastPass
        }
    }

    /// The history file the context was read from.
    public var file: String
    /// Each case's marks over the last runs, oldest first, keyed by stable case id.
    public var cases: [String: [Mark]]
    /// Each suite's (`suite` or `suite@variant`) pass rate over the last runs, oldest first.
    public var suites: [SuiteSeries]
    /// The cases failing now that passed before, by case id.
    public var regressions: [Regression]

    /// A context with all of its parts.
    public init(file: String, cases: [String: [Mark]], suites: [SuiteSeries], regressions: [Regression]) {
        self.file = file
        self.cases = cases
        self.suites = suites
        self.regressions = regressions
    }
}
