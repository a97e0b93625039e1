import Foundation
import Testing
@testable import FMReport
@testable import FMResults

/// `sampleRun()` plus a passing case that answered with markup (`case-6`).
func lazySampleRun() -> RunResult {
    let sample = sampleRun()
    return RunResult(run: sample.run, cases: sample.cases + [sampleCase("city-info", "hostile-pass", [.passed],
                                                                        text: hostileText)],
                     skipped: sample.skipped, classifications: sample.classifications)
}

/// `lazySampleRun()` rendered as a large report would be: every case that holds the run lazily.
func lazyPage() -> String {
    HTMLReport.render(lazySampleRun(), baseline: nil, comparisons: [], history: nil, title: "fmeval report",
                      staticCaseLimit: 0)
}

/// The page with every `<script>` element taken out, as a browser without script shows it.
private func withoutScripts(_ page: String) -> String {
    page.replacingOccurrences(of: "(?s)<script[^>]*>.*?</script>", with: "", options: [.regularExpression])
}

@Test func smallReportsStayStatic() {
    let page = HTMLReport.render(sampleRun())
    #expect(!page.contains("<script type=\"application/json\"") && !page.contains("<noscript>"))
    #expect(page.contains("<details class=\"case\" id=\"case-0\""))
}

@Test func lazyReportKeepsSummaryFailuresAndFailingCasesStatic() {
    let page = withoutScripts(lazyPage())
    #expect(page.contains("<section id=\"summary\">") && page.contains("cases fail their gate"))
    #expect(page.contains("<h3 id=\"failures\">What failed</h3>"))
    for anchor in ["case-1", "case-2", "case-4", "case-5"] {  // beijing, timeout, flaky-bad, hostile: fail the run
        #expect(page.contains("<details class=\"case\" id=\"\(anchor)\""), "\(anchor) must read without script")
        #expect(page.contains("href=\"#\(anchor)\""))
    }
    for anchor in ["case-0", "case-3", "case-6"] {  // paris, flaky-ok, hostile-pass: hold the run
        #expect(!page.contains("id=\"\(anchor)\""), "\(anchor) is drawn by the script")
    }
    #expect(page.contains("<noscript><p class=\"muted\">The 3 cases that hold the run"))
}

@Test func lazyCasesTravelInDataBlocksWithTheirAnchors() throws {
    let page = lazyPage()
    let data = try #require(page.range(of: "<script type=\"application/json\" id=\"fmeval-lazy\">"))
    let json = page[data.upperBound...].prefix { $0 != "<" }
    let lazy = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let anchors = try #require(lazy["anchors"] as? [String: Int])
    #expect(Set(anchors.keys) == ["case-0", "case-3", "case-6"])
    let chunks = try #require(lazy["chunks"] as? Int)
    for chunk in 0..<chunks {
        #expect(page.contains("<script type=\"text/x-fmeval-chunk\" id=\"fmeval-chunk-\(chunk)\">"))
        #expect(page.contains("id=\"lazy-\(chunk)\" class=\"lazy\""), "placeholder of chunk \(chunk)")
    }
    // The suite table's passing rows and the passing cases' details are separate chunks, each with a placeholder.
    #expect(page.contains("<tr id=\"lazy-0\" class=\"lazy\"></tr>"))
    #expect(page.contains("<div id=\"lazy-"))
}

@Test func modelOutputStaysEscapedInsideLazyData() throws {
    let page = lazyPage()
    let chunkStart = try #require(page.range(of: "<script type=\"text/x-fmeval-chunk\""))
    let data = page[chunkStart.lowerBound...]
    #expect(data.contains("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;"))
    #expect(!page.contains("<script>alert"))
    // Only fmeval's own script and data blocks open or close a script element.
    let opened = page.components(separatedBy: "<script").count - 1
    let closed = page.components(separatedBy: "</script>").count - 1
    let blocks = page.components(separatedBy: "<script type=\"text/x-fmeval-chunk\"").count - 1
    #expect(opened == closed && opened == blocks + 2)
}

@Test(arguments: [
    ("a<!--b", "a&lt;!--b"), ("</script>", "&lt;/script>"), ("x</SCRIPT y", "x&lt;/SCRIPT y"),
    ("<ScRiPt src=x>", "&lt;ScRiPt src=x>"), ("<scrip", "<scrip"), ("<b>&lt;script</b>", "<b>&lt;script</b>"),
    ("<!-", "<!-"), ("", ""), ("<", "<"),
])
func scriptSafeDefusesWhatCouldEndADataBlock(markup: String, expected: String) {
    #expect(HTMLLazyChunks.scriptSafe(markup) == expected)
}

@Test func lazyChunksHoldAtMostChunkSizeItemsInOrder() {
    var chunks = HTMLLazyChunks()
    var page = HTMLBuffer()
    for index in 0..<(HTMLLazyChunks.chunkSize + 1) {
        chunks.write(placeholder: "div", anchor: "case-\(index)", into: &page) { $0.raw("<p>\(index)</p>") }
    }
    chunks.end()
    page.raw("<p>static</p>")
    chunks.write(placeholder: "div", into: &page) { $0.raw("<p>after</p>") }
    chunks.end()
    #expect(chunks.chunks.count == 3)
    #expect(chunks.chunks[1] == "<p>\(HTMLLazyChunks.chunkSize)</p>" && chunks.chunks[2] == "<p>after</p>")
    #expect(chunks.anchors.last?.chunk == 1)
    #expect(page.html == "<div id=\"lazy-0\" class=\"lazy\"></div>\n<div id=\"lazy-1\" class=\"lazy\"></div>\n"
        + "<p>static</p><div id=\"lazy-2\" class=\"lazy\"></div>\n")
}
