import FMResults

/// How a case appears in JUnit, decided by the run's `GateVerdict` so that the JUnit file and the exit code
/// agree: `<failure>` and `<error>` exactly for the cases that fail the gate, `<skipped>` for the ones shown
/// but not failing (known issues, old failures under `--fail-on-regression`), and a passing `<testcase>`
/// with Surefire's `<flakyFailure>` per failed attempt for a flaky case whose gate holds.
enum JUnitCaseKind: Equatable {
    /// Every attempt passed (or the case holds its gate with no failed attempt).
    case passed
    /// The gate holds although some attempts failed.
    case flaky
    /// Fails the gate on a model verdict; `change` is its change against the baseline, if any.
    case failure(change: BaselineChange?)
    /// An engine or infrastructure error (always fails the gate).
    case error
    /// Fails its own gate but not the run's: it failed in the baseline too (`--fail-on-regression`).
    case oldFailure(reason: String)
    /// A known issue that still reproduces.
    case knownIssue

    /// The kind of `result` under `verdict`.
    init(_ result: CaseResult, verdict: GateVerdict) {
        if result.status == .error {
            self = .error
        } else if verdict.failsGate(result) {
            self = .failure(change: verdict.change(of: result))
        } else if result.status == .knownIssue {
            self = .knownIssue
        } else if verdict.isOldFailure(result) {
            self = .oldFailure(reason: verdict.notGatingReason(result))
        } else if result.attempts.contains(where: { $0.status == .failed }) {
            self = .flaky
        } else {
            self = .passed
        }
    }

    /// The value of the suite property `fmeval.status.CASE`, nil for a plain pass (which needs none).
    var property: String? {
        switch self {
        case .passed: return nil
        case .flaky: return "flaky (the gate holds)"
        case .failure(change: .regression?): return "regressed (fails the gate)"
        case .failure(change: .newFailure?): return "new failure (fails the gate)"
        case .failure: return "failed (fails the gate)"
        case .error: return "error (fails the gate)"
        case .oldFailure(let reason): return "old failure (\(reason); not gating)"
        case .knownIssue: return "known issue (still reproduces; not gating)"
        }
    }

    /// What a `<failure>` message starts with: `REGRESSED: ` or `NEW FAIL: ` under a baseline, else nothing.
    var messagePrefix: String {
        switch self {
        case .failure(change: .regression?): return "REGRESSED: "
        case .failure(change: .newFailure?): return "NEW FAIL: "
        default: return ""
        }
    }

    /// True for the kinds counted in a suite's `failures`.
    var isFailure: Bool { if case .failure = self { return true } else { return false } }

    /// True for the kinds counted in a suite's `skipped` (besides the cases selected out of the run).
    var isSkipped: Bool {
        if case .oldFailure = self { return true }
        return self == .knownIssue
    }
}
