import Foundation
import Testing
@testable import FMReport
@testable import FMResults

@Test func htmlShowsHostileOutputAsText() {
    let html = HTMLReport.render(sampleRun())
    #expect(!html.contains("<script>alert"))
    #expect(html.contains("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;"))
    #expect(!html.contains("</pre><script>x()"))
    #expect(html.contains("Beijing&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;"))
    #expect(html.contains("hostile &lt;suite&gt; &amp; co"))
    #expect(html.contains("Get info &lt;b&gt;now&lt;/b&gt;"))
    // Only fmeval's own script element is on the page.
    #expect(html.components(separatedBy: "<script>").count == 2)
    #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
}

@Test func htmlIsSelfContainedAndForbidsNetwork() {
    let html = HTMLReport.render(sampleRun())
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("default-src 'none'"))
    for remote in ["src=\"http", "href=\"http", "url(http", "@import", "<link"] { #expect(!html.contains(remote), "\(remote)") }
}

@Test func htmlHasSummaryTablesTranscriptsAndMetrics() {
    let html = HTMLReport.render(sampleRun())
    #expect(html.contains("4 of 6 cases fail their gate"))
    #expect(html.contains("<svg class=\"chart\""))
    for id in ["city-info/paris", "city-info/beijing", "city-info/timeout", "city-info/flaky-ok", "city-info/flaky-bad"] {
        #expect(html.contains(">\(id)</span>"), "\(id)")
    }
    #expect(html.contains("<td class=\"mono\">london</td><td><span class=\"badge skipped\">skipped</span>"))
    #expect(html.contains("<div class=\"role\">tool calls</div><div><code>getCityInfo</code>"))
    #expect(html.contains("&quot;city&quot;: &quot;Beijing"))
    #expect(html.contains("<div class=\"role\">tool output</div>"))
    #expect(html.contains("Schema violations: enum × 1"))
    #expect(html.contains("<tr class=\"metric-fail\"><td class=\"mono\">toolCalls.allPass</td><td>failing</td>"))
    #expect(html.contains("Classification: sentiment"))
    #expect(html.contains("<td class=\"num hit\">1</td>"))
    #expect(html.contains("fmeval.model.sha256"))
    // Failing cases start open, passing ones closed.
    #expect(html.contains("data-status=\"failed\" open>"))
    #expect(html.contains("data-status=\"passed\">"))
}

@Test func htmlShowsBaselineAndABSections() {
    let base = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.passed]), sampleCase("s", "b", [.failed])])
    let now = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.failed]), sampleCase("s", "b", [.passed])])
    let comparison = ABComparison.files(base: base, baseName: "base.json", candidate: now, candidateName: "new.json")
    let html = HTMLReport.render(now, baseline: BaselineComparison(baseline: base, current: now), comparisons: [comparison])
    #expect(html.contains("Against the baseline"))
    #expect(html.contains("<span class=\"badge regression\">regression</span>"))
    #expect(html.contains("<span class=\"badge fixed\">fixed</span>"))
    #expect(html.contains("A/B: base.json vs new.json"))
    #expect(html.contains("McNemar exact p = 1.0000"))
    #expect(html.contains("Flipped cases"))
}

@Test func scriptHashInThePolicyMatchesTheScript() throws {
    // Recompute with coreutils so the check does not trust our own code; a stale hash would make
    // every browser refuse the report's script.
    guard let tool = findExecutable("sha256sum") else {
        Issue.record("sha256sum (coreutils) is missing")
        return
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-script-\(UUID().uuidString).js")
    try Data(HTMLStyle.script.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let hex = try #require(try runTool(tool, [file.path]).output.split(separator: " ").first)
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
        index = next
    }
    #expect(Data(bytes).base64EncodedString() == HTMLStyle.scriptHash, "update HTMLStyle.scriptHash")
    #expect(HTMLReport.render(sampleRun()).contains("script-src 'sha256-\(HTMLStyle.scriptHash)'"))
}
