import FMResults

extension TerminalText {
    /// The closing block, the last lines a run prints: the counts, each case failing the gate (regressions
    /// first) with its reason, the old failures under `--fail-on-regression` (counted only with `-q`), and
    /// the verdict line.
    public static func closing(_ verdict: GateVerdict, verbosity: Verbosity = .normal) -> String {
        closingLines(verdict, verbosity: verbosity).map(\.plain).joined(separator: "\n")
    }

    /// The closing block as parts, so the plain and the coloured output show the same facts.
    static func closingLines(_ verdict: GateVerdict, verbosity: Verbosity) -> [ClosingLine] {
        var lines = [ClosingLine.text(counts(verdict.results))]
        let failing = verdict.failing
        if !failing.isEmpty {
            lines.append(.text("\(cases(failing.count)) failing the gate:"))
            lines += failing.map { .failingCase(label: verdict.label($0), result: $0) }
        }
        let old = verdict.oldFailures
        if !old.isEmpty && verbosity > .quiet {
            let header = verdict.regressionsFrom == .any ? "still failing as in the baseline"
                : "still failing as in the baseline, or regressed for a cause --regressions-from "
                    + "\(verdict.regressionsFrom.rawValue) does not gate"
            lines.append(.text("\(cases(old.count)) \(header) (not failing the gate):"))
            lines += old.map { .failingCase(label: verdict.change(of: $0) == .regression ? verdict.label($0) : "FAIL",
                                            result: $0) }
        }
        lines.append(.verdict(verdict.line, holds: verdict.holds))
        return lines
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
            + (comparison.underpoweredNote.map { "; \($0)" } ?? "")
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

    private static func cases(_ count: Int) -> String { "\(count) case\(count == 1 ? "" : "s")" }
}

/// One line of the closing block.
enum ClosingLine {
    /// A line of text (the counts, a heading).
    case text(String)
    /// A case that fails (the gate, or its own gate under a baseline): `  LABEL ID — REASON`.
    case failingCase(label: String, result: CaseResult)
    /// The verdict, last.
    case verdict(String, holds: Bool)

    /// The line without colour.
    var plain: String {
        switch self {
        case .text(let text), .verdict(let text, _): return text
        case .failingCase(let label, let result): return "  \(label) \(Self.id(result)) — \(Self.reason(result))"
        }
    }

    /// The line cut to the style's width and, with colours, the label red (yellow for an engine error or
    /// a diverged rerun), the reason dim and the verdict green when the gate holds, red when it fails.
    func styled(_ style: TerminalStyle) -> String {
        let line = style.fit(plain)
        guard style.colors else { return line }
        switch self {
        case .text: return line
        case .verdict(_, let holds): return style.paint(line, holds ? .green : .red)
        case .failingCase(let label, let result):
            let warns = result.status == .error || (!result.instabilities.isEmpty && !result.failsRun)
            let head = "  \(label) \(Self.id(result))"
            guard line.hasPrefix(head) else { return line }
            return "  " + style.paint(label, warns ? .yellow : .red) + " \(Self.id(result))"
                + style.paint(String(line.dropFirst(head.count)), .dim)
        }
    }

    private static func id(_ result: CaseResult) -> String { TerminalText.oneLine(result.id) }

    private static func reason(_ result: CaseResult) -> String {
        TerminalText.oneLine(CaseSummaryText.headline(result))
    }
}
