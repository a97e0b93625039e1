import FMResults

extension TerminalText {
    /// The closing block, the last lines a run prints: the counts, each case failing the gate (regressions
    /// first) with its reason, the old failures under `--fail-on-regression` (counted only with `-q`), and
    /// the verdict line.
    public static func closing(_ verdict: GateVerdict, verbosity: Verbosity = .normal) -> String {
        var lines = [counts(verdict.results)]
        let failing = verdict.failing
        if !failing.isEmpty {
            lines.append("\(cases(failing.count)) failing the gate:")
            lines += failing.map { "  \(verdict.label($0)) \(reasonLine($0))" }
        }
        let old = verdict.oldFailures
        if !old.isEmpty && verbosity > .quiet {
            lines.append("\(cases(old.count)) still failing as in the baseline (not failing the gate):")
            lines += old.map { "  FAIL \(reasonLine($0))" }
        }
        lines.append(verdict.line)
        return lines.joined(separator: "\n")
    }

    /// What a run prints between its case lines and its closing block: the A/B comparisons, the baseline
    /// and the history's regressions, one line each by default, the full tables with `-v`, none with `-q`.
    public static func details(_ input: ReportInput, verbosity: Verbosity = .normal) -> [String] {
        switch verbosity {
        case .quiet:
            return []
        case .verbose:
            return input.comparisons.map(ABText.terminal) + (input.baseline.map { [baselineTable($0)] } ?? [])
                + (input.history.flatMap { historyRegressions($0) }.map { [$0] } ?? [])
        case .normal:
            return input.comparisons.map(ABText.line) + (input.baseline.map { [baselineTally($0)] } ?? [])
                + (input.history.flatMap { historyLine($0, verdict: input.verdict) }.map { [$0] } ?? [])
        }
    }

    /// `Against the baseline: 1 regression, 3 unchanged` — the baseline table's first line.
    static func baselineTally(_ comparison: BaselineComparison) -> String {
        let tally = BaselineChange.allCases.compactMap { change -> String? in
            guard let count = comparison.counts[change], count > 0 else { return nil }
            return "\(count) \(change.rawValue)"
        }
        return "Against the baseline: " + (tally.isEmpty ? "no cases" : tally.joined(separator: ", "))
    }

    /// `History (FILE): 2 cases failing after passing in an earlier run: a, b (…)`, naming only cases that
    /// fail the gate (an exit-0 run names none), or nil without any.
    static func historyLine(_ history: HistoryContext, verdict: GateVerdict) -> String? {
        let failing = Set(verdict.failing.map(\.id))
        let ids = history.regressions.map(\.caseID).filter(failing.contains)
        guard !ids.isEmpty else { return nil }
        let shown = ids.prefix(5).map { oneLine($0) }.joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
        return "History (\(oneLine(history.file))): \(cases(ids.count)) failing after passing in an earlier run: "
            + shown + " (-v lists when each started; 'fmeval history trend CASE' shows one)"
    }

    /// `ID — REASON`: a case of the closing block on one line, its reason given here only.
    private static func reasonLine(_ result: CaseResult) -> String {
        "\(oneLine(result.id)) — \(oneLine(CaseSummaryText.headline(result)))"
    }

    private static func cases(_ count: Int) -> String { "\(count) case\(count == 1 ? "" : "s")" }
}
