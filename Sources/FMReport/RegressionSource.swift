import FMResults

/// Which regressions `--fail-on-regression` fails on, by their cause (`--regressions-from`): a team
/// re-qualifying for a new OS release gates on what the model update broke, a team changing prompts on what
/// its edits broke.
public enum RegressionSource: String, CaseIterable, Sendable {
    /// Every regression and every new failure (the default).
    case any
    /// Regressions the model caused (the model changed, alone or with the case).
    case model
    /// Regressions the case's own change caused (alone or with the model), and new failures (new cases).
    case `case`

    /// True when a case with `change` against the baseline, flipped for `cause`, fails the gate. A
    /// regression whose cause cannot be told (a side without a definition hash) fails it under every source:
    /// a gate does not pass what it cannot attribute.
    public func gates(_ change: BaselineChange, cause: DriftCause?) -> Bool {
        if change == .newFailure { return self != .model }
        guard change == .regression else { return false }
        guard let cause else { return true }
        switch self {
        case .any: return true
        case .model: return cause == .model || cause == .both
        case .case: return cause == .case || cause == .both
        }
    }
}
