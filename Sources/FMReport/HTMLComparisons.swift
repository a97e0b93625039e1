import Foundation
import FMEvaluate
import FMResults

/// The comparison sections of the HTML report: baseline diff, A/B views and confusion matrices.
enum HTMLComparisons {
    /// Counts per change and a table of every case whose verdict moved (or still fails).
    static func writeBaseline(_ comparison: BaselineComparison, into page: inout HTMLBuffer) {
        page.raw("<section id=\"baseline\"><h2>Against the baseline</h2>\n")
        let counts = comparison.counts
        page.element("div", cls: comparison.hasRegressions ? "verdict bad" : "verdict ok",
                     comparison.hasRegressions ? "Regressions or new failures" : "No regressions")
        if let note = comparison.underpoweredNote { page.element("p", cls: "muted", note) }
        page.raw("<div class=\"counts\">")
        for change in BaselineChange.allCases {
            page.raw("<div><b>\(counts[change] ?? 0)</b>\(change.rawValue)</div>")
        }
        page.raw("</div>\n")
        let interesting = comparison.entries.filter { $0.change != .unchanged }
        if !interesting.isEmpty {
            page.raw("<table><thead><tr><th>case</th><th>change</th><th>before</th><th>now</th><th class=\"num\">pass rate before → now</th><th>why it flipped</th></tr></thead><tbody>\n")
            for entry in interesting {
                page.open("tr", [("data-case", entry.id), ("data-status", entry.after?.rawValue ?? "")])
                page.raw("<td class=\"mono\">")
                page.text(entry.id)
                page.raw("</td><td><span class=\"badge \(entry.change.rawValue)\">\(entry.change.rawValue)</span></td>")
                page.raw("<td>\(entry.before?.rawValue ?? "–")</td><td>\(entry.after?.rawValue ?? "–")</td>")
                page.raw("<td class=\"num\">\(entry.passRateBefore.map(SVGChart.percent) ?? "–") → \(entry.passRateAfter.map(SVGChart.percent) ?? "–")</td>")
                page.element("td", cls: "cause", entry.cause?.phrase ?? "")
                page.raw("</tr>\n")
            }
            page.raw("</tbody></table>\n")
        }
        page.raw("</section>\n")
    }

    /// Pass rates with intervals, the 2×2 table, McNemar's p-value and the cases that flipped.
    static func writeAB(_ comparison: ABComparison, into page: inout HTMLBuffer) {
        page.raw("<section class=\"ab\"><h2>")
        page.text(ABText.title(comparison))
        page.raw("</h2>\n")
        page.raw(SVGChart.rates([
            SVGChart.RateBar(label: "A " + comparison.a.name, rate: comparison.a.passRate,
                             interval: comparison.a.interval.lower...max(comparison.a.interval.lower, comparison.a.interval.upper), style: "a"),
            SVGChart.RateBar(label: "B " + comparison.b.name, rate: comparison.b.passRate,
                             interval: comparison.b.interval.lower...max(comparison.b.interval.lower, comparison.b.interval.upper), style: "b"),
        ], title: "Pass rate A vs B"))
        let table = comparison.table
        page.raw("<table style=\"width:auto\"><thead><tr><th></th><th class=\"num\">B passes</th><th class=\"num\">B fails</th></tr></thead><tbody>")
        page.raw("<tr><th>A passes</th><td class=\"num\">\(table.bothPass)</td><td class=\"num\">\(table.onlyA)</td></tr>")
        page.raw("<tr><th>A fails</th><td class=\"num\">\(table.onlyB)</td><td class=\"num\">\(table.bothFail)</td></tr></tbody></table>\n")
        page.element("p", ABText.verdict(comparison))
        if let note = comparison.underpoweredNote { page.element("p", cls: "muted", note) }
        if !comparison.unpaired.isEmpty {
            page.element("p", cls: "muted", "\(comparison.unpaired.count) case(s) ran on one side only and are not compared.")
        }
        let flipped = comparison.flipped
        if !flipped.isEmpty {
            page.element("h3", "Flipped cases")
            page.raw("<table><thead><tr><th>case</th><th>A</th><th>B</th><th class=\"num\">pass rate A → B</th></tr></thead><tbody>\n")
            for row in flipped {
                page.raw("<tr><td class=\"mono\">")
                page.text(row.key)
                page.raw("</td><td><span class=\"badge \(row.statusA.rawValue)\">\(row.statusA.rawValue)</span></td>")
                page.raw("<td><span class=\"badge \(row.statusB.rawValue)\">\(row.statusB.rawValue)</span></td>")
                page.raw("<td class=\"num\">\(SVGChart.percent(row.passRateA)) → \(SVGChart.percent(row.passRateB))</td></tr>\n")
            }
            page.raw("</tbody></table>\n")
        }
        page.raw("</section>\n")
    }

    /// The confusion matrix of an enum suite with per-label precision and recall.
    static func writeConfusion(_ classification: SuiteClassification, into page: inout HTMLBuffer) {
        let summary = classification.summary
        page.raw("<section class=\"classification\"><h2>")
        page.text("Classification: \(classification.suite)\(classification.variant.map { "@\($0)" } ?? "")")
        page.raw("</h2>\n")
        var line = "accuracy \(SVGChart.percent(summary.accuracy)) · out of enum \(SVGChart.percent(summary.outOfEnumRate)) · \(summary.total) attempts"
        if let f1 = summary.macroF1 { line += " · macro F1 \(Fixed.format(f1, 3))" }
        page.element("p", line)
        if !summary.unknownExpectedLabels.isEmpty {
            page.element("p", cls: "muted", "Expected labels outside the enum (not counted): " + summary.unknownExpectedLabels.joined(separator: ", "))
        }
        page.raw("<table class=\"matrix\" style=\"width:auto\"><thead><tr><th>expected ↓ / produced →</th>")
        for label in summary.labels { page.raw("<th class=\"num\">"); page.text(label); page.raw("</th>") }
        page.raw("<th class=\"num\">out of enum</th><th class=\"num\">precision</th><th class=\"num\">recall</th></tr></thead><tbody>\n")
        for (row, label) in summary.labels.enumerated() {
            page.raw("<tr><th>")
            page.text(label)
            page.raw("</th>")
            for (column, produced) in summary.labels.enumerated() {
                let count = summary.count(expected: label, predicted: produced)
                let style = count == 0 ? "" : (row == column ? " hit" : " miss")
                page.raw("<td class=\"num\(style)\">\(count)</td>")
            }
            let out = summary.count(expected: label, predicted: FMEvaluate.ClassificationSummary.outOfEnum)
            page.raw("<td class=\"num\(out > 0 ? " miss" : "")\">\(out)</td>")
            let score = summary.scores.first { $0.label == label }
            page.raw("<td class=\"num\">\(score?.precision.map(SVGChart.percent) ?? "–")</td><td class=\"num\">\(score?.recall.map(SVGChart.percent) ?? "–")</td></tr>\n")
        }
        page.raw("</tbody></table></section>\n")
    }
}

/// Plain-text A/B statements shared by the terminal and HTML views.
public enum ABText {
    /// `A/B: A vs B`, or `A/B SUITE: A vs B` for the variants of one suite.
    public static func title(_ comparison: ABComparison) -> String {
        "A/B\(comparison.suite.map { " " + $0 } ?? ""): \(comparison.a.name) vs \(comparison.b.name)"
    }

    /// The terminal A/B table, headed by `A/B for suite SUITE:` when it compares one suite's variants.
    public static func terminal(_ comparison: ABComparison) -> String {
        let heading = comparison.suite.map { "A/B for suite \(TerminalText.oneLine($0)):\n" } ?? ""
        return heading + TerminalText.abTable(comparison)
    }

    /// The comparison on one line: `A/B SUITE: ` and the verdict, and how many cases ran on one side only.
    public static func line(_ comparison: ABComparison) -> String {
        let unpaired = comparison.unpaired.count
        return "A/B\(comparison.suite.map { " " + TerminalText.oneLine($0) } ?? ""): " + verdict(comparison)
            + (unpaired > 0 ? "; \(unpaired) case(s) ran on one side only" : "")
    }

    /// `A 80.0% [..] vs B 90.0% [..]; 3 flipped (1 A→fail, 2 B→pass); McNemar exact p = 0.625`.
    public static func verdict(_ comparison: ABComparison) -> String {
        let a = comparison.a, b = comparison.b
        let p = comparison.pValue
        let pText = p < 0.0001 ? String(format: "%.2e", p) : Fixed.format(p, 4)
        let significance = p < 0.05 ? "significant at 5%" : "not significant at 5%"
        return "\(a.name) \(a.passes)/\(a.cases) (\(SVGChart.percent(a.passRate)), 95% CI \(SVGChart.percent(a.interval.lower))–\(SVGChart.percent(a.interval.upper))) vs "
            + "\(b.name) \(b.passes)/\(b.cases) (\(SVGChart.percent(b.passRate)), 95% CI \(SVGChart.percent(b.interval.lower))–\(SVGChart.percent(b.interval.upper))); "
            + "\(comparison.table.onlyB) fixed by B, \(comparison.table.onlyA) broken by B; McNemar exact p = \(pText) (\(significance))"
    }
}
