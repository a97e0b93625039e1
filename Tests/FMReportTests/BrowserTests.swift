import Foundation
import Testing
@testable import FMReport
@testable import FMResults

@Test(.enabled(if: xmllintRunnable && chromiumRunnable))
func sampleReportsPassXmllintAndRenderInChromiumWithoutConsoleErrors() throws {
    let folder = try artifactFolder()
    let run = sampleRun()
    let junit = folder.appendingPathComponent("report.xml")
    let html = folder.appendingPathComponent("report.html")
    try Data(JUnitReport.render(run).utf8).write(to: junit)
    let baseline = BaselineComparison(baseline: run, current: run)
    try Data(HTMLReport.render(run, baseline: baseline, comparisons: [
        ABComparison.files(base: run, baseName: "base.json", candidate: run, candidateName: "candidate.json"),
    ]).utf8).write(to: html)
    let lint = try checkJUnit(String(decoding: try Data(contentsOf: junit), as: UTF8.self))
    #expect(lint.status == 0, "\(lint.output)")
    let render = try #require(try renderInChromium(html))
    #expect(render.console.isEmpty, "\(render.console)")
    #expect(render.dom.contains("data-fmeval-ready=\"1\""), "the report's script did not run to the end")
    for id in ["city-info/paris", "city-info/beijing", "city-info/timeout", "city-info/flaky-ok", "city-info/flaky-bad"] {
        #expect(render.dom.contains(id), "\(id) not shown")
    }
    #expect(render.dom.contains("&lt;script&gt;alert('pwned')&lt;/script&gt;"))
    #expect(!render.dom.contains("<script>alert"))
}

@Test(.enabled(if: chromiumRunnable)) func chromiumCheckCatchesConsoleErrors() throws {
    let page = try artifactFolder().appendingPathComponent("broken-\(UUID().uuidString).html")
    try Data("<!DOCTYPE html><html><body><p>x</p><script>missingFunction();</script></body></html>".utf8).write(to: page)
    defer { try? FileManager.default.removeItem(at: page) }
    let render = try #require(try renderInChromium(page))
    #expect(render.console.contains { $0.contains("missingFunction is not defined") })
}

@Test(.enabled(if: chromiumRunnable))
func lazyReportDrawsEveryCaseInChromiumWithoutConsoleErrors() throws {
    let run = lazySampleRun()
    let html = try artifactFolder().appendingPathComponent("lazy-report.html")
    try Data(lazyPage().utf8).write(to: html)
    // Opened on a lazily drawn case's anchor, as a link from another page would.
    let render = try #require(try renderInChromium(URL(string: html.absoluteString + "#case-6")!))
    #expect(render.console.isEmpty, "\(render.console)")
    #expect(render.dom.contains("data-fmeval-ready=\"1\"") && render.dom.contains("data-fmeval-rendered=\"1\""))
    for anchor in (0..<run.cases.count).map({ "case-\($0)" }) {
        #expect(render.dom.contains("<details class=\"case\" id=\"\(anchor)\""), "\(anchor) not drawn")
    }
    #expect(!render.dom.contains("text/x-fmeval-chunk") && !render.dom.contains("class=\"lazy\""),
            "chunks left undrawn")
    #expect(render.dom.contains("data-case=\"city-info/paris\" data-status=\"passed\""), "suite row not drawn")
    #expect(render.dom.contains("&lt;script&gt;alert('pwned')&lt;/script&gt;"))
    #expect(!render.dom.contains("<script>alert"))
}
