import Foundation
import Testing
import FMEvaluate
@testable import FMReport
import FMResults

/// A history context for `sampleRun()`: paris passed in runs 1–3; beijing passed in 1–2 and fails since run 3.
private func sampleHistory() -> HistoryContext {
    let runs = (1...3).map { HistoryContext.Run(number: $0, startedAt: "2026-11-2\($0)T10:00:00Z", commit: "abcdef12345\($0)") }
    return HistoryContext(
        file: "reports/history.sqlite",
        cases: ["city-info/paris": runs.map { .init(run: $0, status: .passed) },
                "city-info/beijing": [.init(run: runs[0], status: .passed), .init(run: runs[1], status: .knownIssue),
                                      .init(run: runs[2], status: .failed)]],
        suites: [.init(suite: "city-info", points: zip(runs, [1.0, 0.5, 0.25]).map { .init(run: $0, rate: $1) })],
        regressions: [.init(caseID: "city-info/beijing", since: runs[2], lastPass: runs[1])])
}

@Test func htmlShowsATrendStripPerCaseAndEachSuitesPassRateOverTime() {
    let page = HTMLReport.render(sampleRun(), history: sampleHistory())
    #expect(page.contains("<section id=\"history\"><h2>Pass rate over time</h2>"))
    #expect(page.contains("<title>#2 2026-11-22 abcdef12: 50.0%</title>"))
    #expect(page.contains("<th>history</th>"))
    #expect(page.components(separatedBy: "<svg class=\"trend\"").count == 3, "one strip for each case the history knows")
    #expect(page.contains("<rect class=\"known-issue\" x=\"12\" y=\"0\" width=\"10\" height=\"10\"><title>#2 2026-11-22 abcdef12: knownIssue</title>"))
    #expect(page.contains("<rect class=\"failed\" x=\"24\""))
    let plain = HTMLReport.render(sampleRun())
    #expect(!plain.contains("Pass rate over time") && !plain.contains("<th>history</th>"))
}

@Test func lineChartPlacesRunsLeftToRightAndRatesBottomToTop() {
    let runs = (1...2).map { HistoryContext.Run(number: $0, startedAt: "2026-11-0\($0)", commit: nil) }
    let svg = HTMLHistory.lineChart([.init(run: runs[0], rate: 1), .init(run: runs[1], rate: 0)], title: "t <x>")
    #expect(svg.contains("aria-label=\"t &lt;x&gt;\""))
    #expect(svg.contains("<path d=\"M40.0 8.0L392.0 72.0\" stroke=\"#0969da\""))
    #expect(svg.contains("<circle class=\"pass\" cx=\"40.0\" cy=\"8.0\"") && svg.contains("<circle class=\"fail\" cx=\"392.0\" cy=\"72.0\""))
    let single = HTMLHistory.lineChart([.init(run: runs[0], rate: 0.5)], title: "one")
    #expect(single.contains("<circle class=\"fail\" cx=\"216.0\" cy=\"40.0\"") && !single.contains("stroke=\"#0969da\""))
}

@Test func terminalNamesRegressionsWithTheRunTheyStartedIn() {
    let text = TerminalText.historyRegressions(sampleHistory())
    #expect(text == """
    Regressions (run history reports/history.sqlite): 1 case failing after passing before
      city-info/beijing: failing since run #3 2026-11-23 abcdef12; last passed in run #2 2026-11-22 abcdef12
    """)
    var none = sampleHistory()
    none.regressions = []
    #expect(TerminalText.historyRegressions(none) == nil)
}
