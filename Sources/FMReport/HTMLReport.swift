import Foundation
import FMResults

extension ReportFormat {
    /// `--html FILE`: the self-contained HTML report, with the baseline and A/B sections when there are any.
    public static let html = ReportFormat(
        name: "html", help: "write the self-contained HTML report", needs: .results
    ) { input in
        Data(HTMLReport.render(input.results, baseline: input.baseline, comparisons: input.comparisons,
                              history: input.history).utf8)
    }
}

/// The self-contained HTML report: inline CSS, script and SVG, no network, summary readable without script.
///
/// Every piece of model output and suite text passes through `HTMLEscaping`, so a response holding
/// `<script>` shows as text.
public enum HTMLReport {
    /// Most cases a report writes entirely as static markup; a larger one leaves the cases that hold the run
    /// to its script (`HTMLLazyChunks`), so its summary and failures paint and the page loads first.
    static let staticCaseLimit = 500

    /// The page for `run`, with a baseline diff, A/B comparisons and the run history's trends when given.
    public static func render(_ run: RunResult, baseline: BaselineComparison? = nil,
                              comparisons: [ABComparison] = [], history: HistoryContext? = nil,
                              title: String = "fmeval report") -> String {
        render(run, baseline: baseline, comparisons: comparisons, history: history, title: title,
               staticCaseLimit: staticCaseLimit)
    }

    /// `render` with the case count above which the cases that hold the run are rendered lazily.
    static func render(_ run: RunResult, baseline: BaselineComparison?, comparisons: [ABComparison],
                       history: HistoryContext?, title: String, staticCaseLimit: Int) -> String {
        var page = HTMLBuffer(capacity: 4096 + run.cases.count * 3072)
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"\(HTMLStyle.contentSecurityPolicy)\">")
        page.element("title", "\(title) — \(run.summary.total) cases")
        page.raw("<style>\(HTMLStyle.css)</style></head>\n<body>\n")
        page.element("h1", title)
        writeSummary(run, into: &page)
        var anchors: [String: String] = [:]
        for (index, result) in run.cases.enumerated() where anchors[result.id] == nil { anchors[result.id] = "case-\(index)" }
        HTMLKnownIssue.writeSection(run, anchors: anchors, into: &page)
        if let history { HTMLHistory.writeSuites(history, into: &page) }
        if let baseline { HTMLComparisons.writeBaseline(baseline, into: &page) }
        for comparison in comparisons { HTMLComparisons.writeAB(comparison, into: &page) }
        for classification in run.classifications { HTMLComparisons.writeConfusion(classification, into: &page) }
        let groups = SuiteGroup.groups(run)
        var changes: [String: BaselineChange] = [:]
        for entry in baseline?.entries ?? [] { changes[entry.id] = entry.change }
        writeFilters(into: &page)
        var lazy = run.cases.count > staticCaseLimit ? HTMLLazyChunks() : nil
        if lazy != nil {
            let holding = run.cases.filter(\.holdsRun).count
            page.raw("<noscript><p class=\"muted\">")
            page.text("The \(holding) cases that hold the run (their rows and details) are drawn by this page's script; "
                      + "the summary, what failed and the failing cases' details read without it.")
            page.raw("</p></noscript>\n")
        }
        for group in groups {
            writeSuiteTable(group, anchors: anchors, changes: changes, trends: history?.cases ?? [:], lazy: &lazy,
                            into: &page)
        }
        page.raw("<h2 id=\"cases\">Cases</h2>\n")
        let cache = HTMLTranscript.Cache()
        for (index, result) in HTMLCaseOrder.sorted(run.cases) {
            let anchor = "case-\(index)", change = changes[result.id]
            if lazy != nil && result.holdsRun {
                lazy?.write(placeholder: "div", anchor: anchor, into: &page) {
                    HTMLCaseDetails.write(result, anchor: anchor, change: change, cache: cache, into: &$0)
                }
            } else {
                lazy?.end()
                HTMLCaseDetails.write(result, anchor: anchor, change: change, cache: cache, into: &page)
            }
        }
        lazy?.end()
        lazy?.writeData(into: &page)
        page.raw("<script>\(HTMLStyle.script)</script>\n</body></html>\n")
        return page.html
    }

    private static func writeSummary(_ run: RunResult, into page: inout HTMLBuffer) {
        let info = run.run, summary = run.summary
        page.open("p", cls: "meta")
        page.text("Run \(info.id) · started \(info.startedAt)")
        if let duration = info.durationMs { page.text(" · \(Fixed.format(duration / 1000, 1)) s") }
        if let shard = info.shard { page.text(" · shard \(shard)") }
        if let filter = info.filter { page.text(" · filter \(filter)") }
        page.close("p")
        HTMLTranscript.writeRecordedSources(info.fingerprint.recordedTranscripts ?? [], into: &page)
        page.raw("<section id=\"summary\"><h2>Summary</h2>\n")
        let failing = run.cases.filter { !$0.holdsRun }.count
        let cause = summary.nondeterministic + summary.historyDependent > 0
            ? "fail their gate or disagreed with a rerun" : "fail their gate"
        page.element("div", cls: failing == 0 ? "verdict ok" : "verdict bad",
                     failing == 0 ? "All gates hold" : "\(failing) of \(summary.total) cases \(cause)")
        page.raw("<div class=\"counts\">")
        let counts: [(String, Int)] = [("cases", summary.total), ("passed", summary.passed), ("failed", summary.failed),
                                       ("flaky", summary.flaky), ("error", summary.errored),
                                       ("known issues", summary.knownIssues), ("skipped", summary.skipped),
                                       ("attempts", summary.attempts), ("nondeterministic", summary.nondeterministic),
                                       ("history-dependent", summary.historyDependent)]
        let shownWhenZero = ["cases", "passed", "failed", "flaky", "error", "skipped", "attempts"]
        for (label, count) in counts where count > 0 || shownWhenZero.contains(label) {
            page.raw("<div><b>\(count)</b>")
            page.text(label)
            page.raw("</div>")
        }
        page.raw("</div>\n")
        page.raw(SVGChart.stacked([
            SVGChart.Segment(label: "passed", count: summary.passed, style: "passed"),
            SVGChart.Segment(label: "flaky", count: summary.flaky, style: "flaky"),
            SVGChart.Segment(label: "failed", count: summary.failed, style: "failed"),
            SVGChart.Segment(label: "error", count: summary.errored, style: "error"),
            SVGChart.Segment(label: "known issue", count: summary.knownIssues, style: "known-issue"),
            SVGChart.Segment(label: "skipped", count: summary.skipped, style: "skipped"),
        ], title: "Case status"))
        writeFailures(run, into: &page)
        let groups = SuiteGroup.groups(run).filter { !$0.cases.isEmpty }
        let bars = groups.map { group -> SVGChart.RateBar in
            let rate = PassRate(group.cases)
            let side = ABComparison.Side(name: group.title, passes: rate.passing, cases: rate.cases)
            return SVGChart.RateBar(label: group.title, rate: side.passRate,
                                    interval: side.interval.lower...max(side.interval.lower, side.interval.upper),
                                    style: side.passes == side.cases ? "pass" : "fail")
        }
        if !bars.isEmpty {
            page.element("h3", "Gate pass rate per suite (Wilson 95% interval)")
            page.raw(SVGChart.rates(bars, title: "Gate pass rate per suite"))
        }
        page.element("h3", "Fingerprint")
        page.raw("<dl class=\"fp\">")
        for (key, value) in JUnitReport.properties(run, variant: nil) {
            page.element("dt", key)
            page.element("dd", value)
        }
        page.raw("</dl></section>\n")
    }

    /// The cases that do not hold the run (failed, error, diverged), most serious first, each linked to its details.
    private static func writeFailures(_ run: RunResult, into page: inout HTMLBuffer) {
        let failing = HTMLCaseOrder.sorted(run.cases).filter { !$0.result.holdsRun }
        guard !failing.isEmpty else { return }
        page.raw("<h3 id=\"failures\">What failed</h3>\n<table class=\"failures stack\"><thead><tr><th>status</th><th>case</th><th>why</th></tr></thead><tbody>\n")
        for (index, result) in failing {
            page.raw("<tr><td><span class=\"badge \(result.status.rawValue)\">\(result.status.rawValue)</span></td><td class=\"mono\"><a href=\"#case-\(index)\">")
            page.text(result.id)
            page.raw("</a></td><td>")
            page.text(CaseSummaryText.headline(result))
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
    }

    private static func writeFilters(into page: inout HTMLBuffer) {
        page.raw("<div id=\"filters\" hidden><input id=\"filter-text\" type=\"search\" placeholder=\"Filter by case id\" aria-label=\"Filter by case id\">")
        page.raw("<select id=\"filter-status\" aria-label=\"Status\"><option value=\"\">any status</option>")
        for status in ["passed", "failed", "flaky", "error", "knownIssue", "skipped"] { page.raw("<option>\(status)</option>") }
        page.raw("</select><button id=\"expand-all\" type=\"button\">Expand all</button> <button id=\"collapse-all\" type=\"button\">Collapse all</button> <span id=\"filter-count\" class=\"muted\"></span></div>\n")
    }

    /// One suite's table; with `lazy`, the rows of cases that hold the run go to its chunks.
    private static func writeSuiteTable(_ group: SuiteGroup, anchors: [String: String],
                                        changes: [String: BaselineChange], trends: [String: [HistoryContext.Mark]],
                                        lazy: inout HTMLLazyChunks?, into page: inout HTMLBuffer) {
        page.open("h2")
        page.text("Suite \(group.suite)")
        if let variant = group.variant { page.raw(" <span class=\"muted\">variant "); page.text(variant); page.raw("</span>") }
        page.close("h2")
        let showChange = group.cases.contains { changes[$0.id] != nil }
        let showTrend = group.cases.contains { trends[$0.id] != nil }
        page.raw("<table class=\"cases stack\"><thead><tr><th>case</th><th>status</th>\(showTrend ? "<th>history</th>" : "")\(showChange ? "<th>baseline</th>" : "")<th class=\"num\">passes</th><th class=\"num\">pass rate (95% CI)</th><th>gate</th><th class=\"num\">time</th><th>why</th></tr></thead><tbody>\n")
        let columns = RowColumns(anchors: anchors, changes: changes, trends: trends, showChange: showChange,
                                 showTrend: showTrend)
        for (_, result) in HTMLCaseOrder.sorted(group.cases) {
            if lazy != nil && result.holdsRun {
                lazy?.write(placeholder: "tr", into: &page) { writeRow(result, columns, into: &$0) }
            } else {
                lazy?.end()
                writeRow(result, columns, into: &page)
            }
        }
        lazy?.end()
        for skipped in group.skipped {
            page.open("tr", [("data-case", skipped.id), ("data-status", "skipped")])
            page.raw("<td class=\"mono\">")
            page.text(skipped.caseID)
            page.raw("</td><td><span class=\"badge skipped\">skipped</span></td>\(showTrend ? "<td></td>" : "")\(showChange ? "<td></td>" : "")<td></td><td></td><td></td><td></td><td>")
            page.text(skipped.reason)
            page.raw("</td></tr>\n")
        }
        page.raw("</tbody></table>\n")
    }

    /// What every row of one suite table shows besides the case: links, baseline changes, history strips.
    private struct RowColumns {
        var anchors: [String: String]
        var changes: [String: BaselineChange]
        var trends: [String: [HistoryContext.Mark]]
        var showChange: Bool
        var showTrend: Bool
    }

    /// One case's row of a suite table.
    private static func writeRow(_ result: CaseResult, _ columns: RowColumns, into page: inout HTMLBuffer) {
        page.open("tr", [("data-case", result.id), ("data-status", result.status.rawValue)])
        page.raw("<td class=\"mono\"><a href=\"#\(columns.anchors[result.id] ?? "cases")\">")
        page.text(result.caseID)
        page.raw("</a></td><td><span class=\"badge \(result.status.rawValue)\">\(result.status.rawValue)</span></td>")
        if columns.showTrend { page.raw("<td>\(columns.trends[result.id].map(HTMLHistory.strip) ?? "")</td>") }
        if columns.showChange {
            let change = columns.changes[result.id]
            page.raw("<td>\(change.map { "<span class=\"badge \($0.rawValue)\">\($0.rawValue)</span>" } ?? "")</td>")
        }
        page.raw("<td class=\"num\">\(result.passes)/\(result.attempts.count)</td>")
        page.raw("<td class=\"num\">\(SVGChart.percent(result.passRate)) (\(SVGChart.percent(result.interval.lower))–\(SVGChart.percent(result.interval.upper)))</td><td class=\"gate\">")
        page.text(CaseSummaryText.gateText(result.gate) ?? "all attempts")
        page.raw(result.gateHolds ? " ✓" : " ✗")
        page.raw("</td><td class=\"num\">\(Fixed.format(result.durationMs / 1000, 2)) s</td><td>")
        if !result.holdsRun { page.text(CaseSummaryText.headline(result)) }
        if result.status == .knownIssue { HTMLKnownIssue.write(result, into: &page) }
        page.raw("</td></tr>\n")
    }
}
