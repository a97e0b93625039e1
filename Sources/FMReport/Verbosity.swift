import FMResults

/// How much a run prints (`-q`, default, `-v`): the cases worth a line as they finish, and whether the
/// A/B, baseline and history details come as one line each, as full tables, or not at all.
public enum Verbosity: Int, Sendable, Comparable, CaseIterable {
    /// `-q`: only the cases that fail their gate, then the closing block.
    case quiet
    /// The default: every case that is not a plain pass, a progress line per tenth in logs, details in one line each.
    case normal
    /// `-v`: every case with its reason, and the full A/B, baseline and history tables.
    case verbose

    /// Orders by how much is printed.
    public static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a finished case gets its own line: every case with `-v`; with `-q` the ones failing the
    /// gate as `judge` says (under `--fail-on-regression`, not the old failures); by default every case
    /// that does not hold its own gate, known issues, flaky cases and reproductions (a plain pass is only counted).
    public func showsLine(for result: CaseResult, judge: GateJudge = .everyGate) -> Bool {
        switch self {
        case .verbose: return true
        case .quiet: return judge.failsGate(result)
        case .normal: return !result.holdsRun || result.status != .passed || result.reproduction != nil
        }
    }

    /// Whether a case's line carries its failure reason; failing reasons otherwise come once, in the closing block.
    public func showsReason(for result: CaseResult) -> Bool { self == .verbose || result.holdsRun }
}
