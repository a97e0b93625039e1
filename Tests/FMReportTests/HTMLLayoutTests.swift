import Foundation
import Testing
@testable import FMReport
@testable import FMResults

@Test func chartLabelsAreDrawnInFullWrappingLongOnes() {
    let long = "forum-anyof-tool-arguments@prompt-only-with-a-much-longer-variant-name-than-fits"
    let svg = SVGChart.rates([SVGChart.RateBar(label: long, rate: 0.4), SVGChart.RateBar(label: "short", rate: 1)], title: "t")
    #expect(!svg.contains("…"), "labels are never cut")
    let lines = SVGChart.wrapped(long, to: 400 / 8)
    #expect(lines.count == 2 && lines.joined() == long, "\(lines)")
    #expect(lines[0].hasSuffix("-") || lines[0].hasSuffix("@"), "breaks after a separator: \(lines)")
    for line in lines { #expect(svg.contains(">\(line)</text>"), "\(line)") }
    #expect(svg.contains(">short</text>"))
    #expect(SVGChart.wrapped("abcdefghij", to: 4) == ["abcd", "efgh", "ij"], "a word longer than a line breaks mid-word")
    #expect(SVGChart.wrapped("", to: 4) == [""])
}

@Test func stackedLegendWrapsInsteadOfRunningOffTheChart() {
    let segments = (1...8).map { SVGChart.Segment(label: "status-number-\($0)", count: $0, style: "passed") }
    let svg = SVGChart.stacked(segments, title: "t", width: 400)
    let xs = svg.components(separatedBy: "<text x=\"").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
    #expect(xs.count == 8)
    for (x, segment) in zip(xs, segments) {
        let legend = "\(segment.label) \(segment.count)"
        #expect(x + 8 * legend.count <= 400, "legend '\(legend)' at x \(x) runs past the chart")
    }
    #expect(svg.contains("height=\"") && !svg.contains("height=\"52\""), "the chart grows to hold the legend rows")
}

@Test func reportIsResponsiveAndChartsFitANarrowScreen() {
    let html = HTMLReport.render(sampleRun())
    #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
    #expect(HTMLStyle.css.contains("@media (max-width:640px)"))
    #expect(HTMLStyle.css.contains("table{display:block;overflow-x:auto;max-width:100%}"), "tables scroll inside themselves")
    #expect(HTMLStyle.css.contains(".badge{") && HTMLStyle.css.contains("white-space:nowrap}"), "badges never wrap")
    #expect(html.contains("<table class=\"failures stack\">") && html.contains("<table class=\"cases stack\">"))
    // Every chart is at most 400 px wide, so it is drawn unscaled on a 420 px screen.
    let widths = html.components(separatedBy: "<svg class=\"chart\"").dropFirst().compactMap { part -> Int? in
        guard let range = part.range(of: "width=\"") else { return nil }
        return Int(part[range.upperBound...].prefix { $0.isNumber })
    }
    #expect(!widths.isEmpty && widths.allSatisfy { $0 <= 400 }, "\(widths)")
}
