import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Where each marker first occurs in `html` after `start`, in the order given; nil for a missing one.
private func positions(of markers: [String], in html: String, after start: String) -> [Int?] {
    guard let from = html.range(of: start)?.upperBound else { return markers.map { _ in nil } }
    return markers.map { marker in html.range(of: marker, range: from..<html.endIndex).map { html.distance(from: html.startIndex, to: $0.lowerBound) } }
}

private let mixedRun = RunResult(run: sampleInfo(), cases: [
    sampleCase("s", "ok-1", [.passed]),
    sampleCase("s", "wobbly", [.passed, .failed], gate: CaseGate(minPasses: 1)),
    sampleCase("s", "broken", [.error]),
    sampleCase("s", "wrong-1", [.failed]),
    sampleCase("s", "ok-2", [.passed]),
    sampleCase("s", "wrong-2", [.failed]),
])

@Test func statusOrderIsFailedErrorFlakyThenPassed() {
    let ranks = [CaseStatus.failed, .error, .flaky, .passed].map(HTMLCaseOrder.rank)
    #expect(ranks == ranks.sorted() && Set(ranks).count == 4, "\(ranks)")
    let order = HTMLCaseOrder.sorted(mixedRun.cases).map(\.result.caseID)
    #expect(order == ["wrong-1", "wrong-2", "broken", "wobbly", "ok-1", "ok-2"])
    #expect(HTMLCaseOrder.sorted(mixedRun.cases).map(\.index) == [3, 5, 2, 1, 0, 4])
}

@Test func failedCasesComeFirstInTheHTML() {
    let html = HTMLReport.render(mixedRun)
    let ids = ["s/wrong-1", "s/wrong-2", "s/broken", "s/wobbly", "s/ok-1", "s/ok-2"]
    // The case details, the suite table and the summary's list of failures all open on what failed.
    let details = positions(of: ids.map { "data-case=\"\($0)\" data-status=" }, in: html, after: "<h2 id=\"cases\">")
    #expect(details.allSatisfy { $0 != nil } && details.map { $0 ?? 0 } == details.map { $0 ?? 0 }.sorted(), "\(details)")
    let rows = positions(of: ids.map { "<tr data-case=\"\($0)\"" }, in: html, after: "<h2>Suite s")
    #expect(rows.allSatisfy { $0 != nil } && rows.map { $0 ?? 0 } == rows.map { $0 ?? 0 }.sorted(), "\(rows)")
    let failures = positions(of: ["#case-3\">s/wrong-1", "#case-5\">s/wrong-2", "#case-2\">s/broken"], in: html, after: "What failed")
    #expect(failures.allSatisfy { $0 != nil } && failures.map { $0 ?? 0 } == failures.map { $0 ?? 0 }.sorted(), "\(failures)")
    #expect(html.range(of: "What failed")!.lowerBound < html.range(of: "Gate pass rate per suite")!.lowerBound, "failures come before the rates")
    #expect(!html.contains("#case-1\">s/wobbly") && !html.contains("#case-0\">s/ok-1"), "only failing cases are in the failure list")
    // Anchors still point at each case's own details.
    #expect(html.contains("<details class=\"case\" id=\"case-3\" data-case=\"s/wrong-1\""))
}

@Test func passingRunHasNoFailureList() {
    let html = HTMLReport.render(RunResult(run: sampleInfo(), cases: [sampleCase("s", "ok", [.passed])]))
    #expect(html.contains("All gates hold"))
    #expect(!html.contains("What failed"))
}
