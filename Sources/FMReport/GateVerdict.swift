import FMCore
import FMResults

/// The run's verdict: which cases fail the gate, in what order to show them, the exit code and the
/// closing line. The one place that decides it, so the terminal, JUnit, HTML and the library agree.
///
/// Without `--fail-on-regression` every case's own gate counts (`CaseResult.holdsRun`). With it, only
/// the cases that regressed or newly fail against the baseline (`BaselineChange.failsGate`) do; cases
/// that failed there too are old failures, shown but not failing. Either way an engine or
/// infrastructure error fails the run with exit 3, and a rerun that disagrees (a diverged `--check-determinism`
/// rerun, a verdict that changed in a reused session) with exit 1.
public struct GateVerdict: Sendable {
    /// Which cases the gate judges.
    public enum Rule: Sendable, Equatable {
        /// Every case's own gate (`minPassRate`, known issues, determinism).
        case everyGate
        /// Only regressions and new failures against the baseline (`--fail-on-regression`).
        case noRegressions
    }

    /// The results judged.
    public let results: RunResult
    /// Every case's change against the baseline, when there is one.
    public let baseline: BaselineComparison?
    /// The rule applied.
    public let rule: Rule
    /// Which regressions the `noRegressions` rule fails on (`--regressions-from`).
    public let regressionsFrom: RegressionSource
    private let entries: [String: BaselineEntry]

    /// The verdict on `results`; `failOnRegression` (limited to the regressions `regressionsFrom` names)
    /// applies only with a `baseline`.
    public init(results: RunResult, baseline: BaselineComparison? = nil, failOnRegression: Bool = false,
                regressionsFrom: RegressionSource = .any) {
        self.results = results
        self.baseline = baseline
        self.rule = failOnRegression && baseline != nil ? .noRegressions : .everyGate
        self.regressionsFrom = regressionsFrom
        var entries: [String: BaselineEntry] = [:]
        for entry in baseline?.entries ?? [] { entries[entry.id] = entry }
        self.entries = entries
    }

    /// The case's change against the baseline, if there is a baseline and the case is in it or ran.
    public func change(of result: CaseResult) -> BaselineChange? { entries[result.id]?.change }

    /// Why the case's verdict flipped against the baseline (regressions and fixes), if it did.
    public func cause(of result: CaseResult) -> DriftCause? { entries[result.id]?.cause }

    /// True when `result` fails the run: an error or a rerun that disagreed always, else per the rule.
    public func failsGate(_ result: CaseResult) -> Bool {
        Self.failsGate(result, rule: rule, change: change(of: result), cause: cause(of: result),
                       source: regressionsFrom)
    }

    /// The rule itself, for one case and its change against the baseline (`GateJudge` applies it to cases
    /// as they finish, before the run's verdict exists).
    static func failsGate(_ result: CaseResult, rule: Rule, change: BaselineChange?, cause: DriftCause?,
                          source: RegressionSource) -> Bool {
        if result.status == .error || !result.instabilities.isEmpty { return true }
        switch rule {
        case .everyGate: return result.failsRun
        case .noRegressions: return change.map { source.gates($0, cause: cause) } ?? false
        }
    }

    /// True when `result` fails its own gate but not the run's under `--fail-on-regression`: an old failure,
    /// or a regression whose cause `--regressions-from` does not gate.
    public func isOldFailure(_ result: CaseResult) -> Bool { !result.holdsRun && !failsGate(result) }

    /// Why a case that fails its own gate does not fail the run's (`isOldFailure`).
    public func notGatingReason(_ result: CaseResult) -> String {
        guard change(of: result) == .regression else { return "failed in the baseline too" }
        let cause = cause(of: result).map(\.phrase) ?? "an unknown cause"
        return "regressed because \(cause); --regressions-from \(regressionsFrom.rawValue) does not gate it"
    }

    /// The cases that fail the gate: regressions first, then new failures, then the rest, each in run order.
    public var failing: [CaseResult] {
        let cases = results.cases.filter(failsGate)
        let rank: (CaseResult) -> Int = { result in
            switch change(of: result) {
            case .regression?: return 0
            case .newFailure?: return 1
            default: return 2
            }
        }
        return cases.enumerated()
            .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
            .map(\.element)
    }

    /// The cases that fail their own gate without failing the run (none without `--fail-on-regression`).
    public var oldFailures: [CaseResult] { results.cases.filter(isOldFailure) }

    /// 3 with any error case, 1 with any other failing case, else 0.
    public var exitCode: Int32 {
        let failing = results.cases.filter(failsGate)
        if failing.contains(where: { $0.status == .error }) { return ExitStatus.infrastructure }
        return failing.isEmpty ? ExitStatus.ok : ExitStatus.failed
    }

    /// True when nothing fails the gate.
    public var holds: Bool { exitCode == ExitStatus.ok }

    /// The closing line: `All gates hold.`, or what failed and the exit code it gives.
    public var line: String {
        let failing = self.failing
        let errors = failing.filter { $0.status == .error }.count
        if failing.isEmpty {
            guard rule == .noRegressions else { return "All gates hold." }
            let old = oldFailures.count
            return "No regressions against the baseline: the gate holds"
                + (old > 0 ? " (\(Self.cases(old)) still failing as in the baseline)." : ".")
        }
        let judged = failing.filter { $0.status != .error }
        let regressions = judged.filter { change(of: $0) == .regression }.count
        let newFailures = judged.filter { change(of: $0) == .newFailure }.count
        let unstable = judged.filter { change(of: $0) == nil && !$0.failsRun }.count
        let others = judged.count - regressions - newFailures - unstable
        var parts: [String] = []
        if errors > 0 { parts.append("\(Self.cases(errors)) hit an engine or infrastructure error") }
        if regressions > 0 { parts.append("\(Self.cases(regressions)) regressed against the baseline") }
        if newFailures > 0 { parts.append("\(Self.cases(newFailures)) newly failing (not in the baseline)") }
        if others > 0 { parts.append("\(Self.cases(others)) failed \(others == 1 ? "its gate" : "their gates")") }
        if unstable > 0 {
            parts.append("\(Self.cases(unstable)) passed but disagreed with a rerun "
                + "(nondeterministic or history-dependent)")
        }
        return "Gate failed: " + parts.joined(separator: ", ") + " (exit \(exitCode))."
    }

    /// The label a failing case gets in the closing list: `REGRESSED`, `NEW FAIL`, `ERROR`, `NONDET`,
    /// `HISTORY` (its verdict changed in a reused session) or `FAIL`.
    public func label(_ result: CaseResult) -> String {
        if result.status == .error { return "ERROR" }
        switch change(of: result) {
        case .regression?: return "REGRESSED"
        case .newFailure?: return "NEW FAIL"
        default: return result.failsRun ? "FAIL" : result.diverged ? "NONDET" : "HISTORY"
        }
    }

    private static func cases(_ count: Int) -> String { "\(count) case\(count == 1 ? "" : "s")" }
}
