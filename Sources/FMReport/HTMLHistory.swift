import FMEvaluate

/// The HTML report's history parts (docs/history.md): a trend strip per case (its status over the
/// last runs) and each suite's pass rate over time, as inline SVG with a `<title>` on every mark.
enum HTMLHistory {
    /// The strip of `marks` (oldest first): one square per run, coloured by status.
    static func strip(_ marks: [HistoryContext.Mark]) -> String {
        let size = 10, gap = 2
        let width = max(1, marks.count * (size + gap) - gap)
        var svg = HTMLBuffer(capacity: 96 * (marks.count + 1))
        let label = "status over the last \(marks.count) run\(marks.count == 1 ? "" : "s"), oldest first"
        svg.open("svg", cls: "trend", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"), ("height", "\(size)"),
                                       ("viewBox", "0 0 \(width) \(size)"), ("role", "img"), ("aria-label", label)])
        for (index, mark) in marks.enumerated() {
            svg.raw("<rect class=\"\(styleClass(mark.status))\" x=\"\(index * (size + gap))\" y=\"0\" width=\"\(size)\" height=\"\(size)\"><title>")
            svg.text("\(mark.run.label): \(mark.status.rawValue)")
            svg.raw("</title></rect>")
        }
        svg.close("svg")
        return svg.html
    }

    /// The "Pass rate over time" section: one line chart per suite, the runs along the x axis.
    static func writeSuites(_ history: HistoryContext, into page: inout HTMLBuffer) {
        let series = history.suites.filter { !$0.points.isEmpty }
        guard !series.isEmpty else { return }
        page.raw("<section id=\"history\"><h2>Pass rate over time</h2>\n")
        page.open("p", cls: "muted")
        page.text("Cases holding their gate per suite over the last runs recorded in \(history.file), oldest on the left.")
        page.close("p")
        for suite in series {
            page.element("h3", suite.suite)
            page.raw(lineChart(suite.points, title: "Pass rate of \(suite.suite) over the last \(suite.points.count) runs"))
        }
        page.raw("</section>\n")
    }

    /// A line chart of rates in 0...1 with a dot per run (its label and rate as the dot's title).
    static func lineChart(_ points: [HistoryContext.RatePoint], title: String, width: Int = 400) -> String {
        let height = 90, left = 40, top = 8, plotHeight = 64
        let plotWidth = Double(width - left - 8)
        let step = points.count > 1 ? plotWidth / Double(points.count - 1) : 0
        func x(_ index: Int) -> String { Fixed.format(Double(left) + (points.count > 1 ? step * Double(index) : plotWidth / 2), 1) }
        func yValue(_ rate: Double) -> Double { Double(top) + Double(plotHeight) * (1 - min(1, max(0, rate.isFinite ? rate : 0))) }
        func y(_ rate: Double) -> String { Fixed.format(yValue(rate), 1) }
        var svg = HTMLBuffer(capacity: 160 * (points.count + 4))
        svg.open("svg", cls: "chart", [("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(width)"), ("height", "\(height)"),
                                       ("viewBox", "0 0 \(width) \(height)"), ("role", "img"), ("aria-label", title)])
        svg.element("title", title)
        for (rate, text) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
            svg.raw("<path d=\"M\(left) \(y(rate))H\(width - 8)\" stroke=\"#d1d9e0\" stroke-width=\"1\" fill=\"none\"/>")
            svg.raw("<text x=\"0\" y=\"\(Fixed.format(yValue(rate) + 4, 1))\">\(text)</text>")
        }
        let path = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(x($0.offset)) \(y($0.element.rate))" }.joined()
        if points.count > 1 { svg.raw("<path d=\"\(path)\" stroke=\"#0969da\" stroke-width=\"1.5\" fill=\"none\"/>") }
        for (index, point) in points.enumerated() {
            svg.raw("<circle class=\"\(point.rate >= 1 ? "pass" : "fail")\" cx=\"\(x(index))\" cy=\"\(y(point.rate))\" r=\"3\"><title>")
            svg.text("\(point.run.label): \(SVGChart.percent(point.rate))")
            svg.raw("</title></circle>")
        }
        svg.close("svg")
        return svg.html
    }

    /// The chart's CSS class for a status (the report's colours).
    static func styleClass(_ status: CaseStatus) -> String {
        status == .knownIssue ? "known-issue" : status.rawValue
    }
}
