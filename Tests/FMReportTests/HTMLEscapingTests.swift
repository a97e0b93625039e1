import Testing
@testable import FMReport

@Test func htmlEscapingNeutralisesMarkup() {
    #expect(HTMLEscaping.escape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    #expect(HTMLEscaping.escape("a & \"b\"") == "a &amp; &quot;b&quot;")
    #expect(HTMLEscaping.escape("\u{1B}[1m\u{0}") == "\u{241B}[1m\u{2400}")
    #expect(HTMLEscaping.escape("line\nbreak\ttab") == "line\nbreak\ttab")
    #expect(HTMLEscaping.escape("plain ünïcode 𝔘") == "plain ünïcode 𝔘")
}

@Test func htmlBufferEscapesDataButNotMarkup() {
    var buffer = HTMLBuffer()
    buffer.open("td", cls: "id", [("title", "\"><img src=x onerror=alert(1)>")])
    buffer.text("<b>bold</b>")
    buffer.close("td")
    #expect(buffer.html == "<td class=\"id\" title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\">&lt;b&gt;bold&lt;/b&gt;</td>")
}

@Test func rateChartDrawsBarsWhiskersAndEscapedLabels() {
    let svg = SVGChart.rates([
        SVGChart.RateBar(label: "<suite>", rate: 0.5, interval: 0.3...0.7),
        SVGChart.RateBar(label: "b", rate: 1.5, style: "fail\"><script>"),
    ], title: "Pass rate")
    #expect(svg.hasPrefix("<svg class=\"chart\""))
    #expect(svg.contains("&lt;suite&gt;"))
    #expect(!svg.contains("<suite>"))
    #expect(!svg.contains("<script>"))
    #expect(svg.contains("class=\"failscript\""))
    #expect(svg.contains("50.0%") && svg.contains("100.0%"))
    #expect(svg.contains("class=\"whisker\""))
    #expect(svg.hasSuffix("</svg>"))
}

@Test func stackedChartSharesWidthByCount() {
    let svg = SVGChart.stacked([
        SVGChart.Segment(label: "passed", count: 3, style: "pass"),
        SVGChart.Segment(label: "failed", count: 1, style: "fail"),
        SVGChart.Segment(label: "error", count: 0, style: "error"),
    ], title: "Status", width: 400)
    #expect(svg.contains("width=\"300.0\""))
    #expect(svg.contains("x=\"300.0\" y=\"0\" width=\"100.0\""))
    #expect(svg.contains("passed 3") && svg.contains("failed 1"))
    #expect(!svg.contains("error 0"))
}

@Test func bidiControlsShowAsEscapesInHTMLJUnitAndTerminalText() {
    let controls: [Unicode.Scalar] = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
                                      "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"]
    for control in controls {
        let text = "invoice\(control)fdp.exe"
        let shown = "invoice[U+" + String(format: "%04X", control.value) + "]fdp.exe"
        #expect(HTMLEscaping.escape(text) == shown)
        #expect(XMLEscaping.text(text) == shown)
        #expect(XMLEscaping.attribute(text) == shown)
        #expect(TerminalText.oneLine(text) == shown)
    }
    // Neighbours sharing the lead bytes stay as they are.
    #expect(HTMLEscaping.escape("“quoted” – dash ← ؛") == "“quoted” – dash ← ؛")
    #expect(XMLEscaping.text("a\u{200D}b") == "a\u{200D}b", "a zero-width joiner is no bidi control")
}
