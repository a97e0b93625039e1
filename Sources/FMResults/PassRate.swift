import FMEvaluate

/// The one definition of a pass rate over cases, used by the terminal and HTML reports, A/B comparisons,
/// the run history and the `FMEval` library: the cases whose gate holds (`CaseResult.gateHolds`: every
/// attempt passed, or enough of them for `minPassRate`/`minPasses`) over the cases run.
///
/// It measures the answers, not the exit code: a known issue that still reproduces does not pass (the
/// gate verdict excuses it; the rate does not hide it), and cases selected out of the run are not counted.
public struct PassRate: Sendable, Equatable {
    /// Cases whose gate holds.
    public var passing: Int
    /// Cases run.
    public var cases: Int

    /// A rate from its counts.
    public init(passing: Int, cases: Int) {
        self.passing = passing
        self.cases = cases
    }

    /// The rate of `results`.
    public init(_ results: some Sequence<CaseResult>) {
        var passing = 0, cases = 0
        for result in results {
            cases += 1
            if Self.passes(result) { passing += 1 }
        }
        self.init(passing: passing, cases: cases)
    }

    /// True when `result` counts as passing: its gate holds.
    public static func passes(_ result: CaseResult) -> Bool { result.gateHolds }

    /// passing / cases (0 when no case ran).
    public var rate: Double { cases == 0 ? 0 : Double(passing) / Double(cases) }

    /// The Wilson 95 % interval of `rate`.
    public var interval: WilsonInterval { WilsonInterval(successes: passing, trials: cases) }
}
