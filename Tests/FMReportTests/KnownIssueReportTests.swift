import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

private let forum = KnownIssue(reason: "anyOf shown, not enforced <&>", url: "https://developer.apple.com/forums/thread/812501")

/// A case of `suite` that declares `issue`, from its attempt outcomes.
private func knownCase(_ suite: String, _ id: String, variant: String? = nil, _ outcomes: [AttemptOutcome],
                       issue: KnownIssue? = forum) -> CaseResult {
    CaseResult(id: CaseResult.stableID(suite: suite, caseID: id, variant: variant), suite: suite, caseID: id, variant: variant,
               source: "suites/\(suite).yaml:\(id.count)", knownIssue: issue,
               attempts: outcomes.enumerated().map { sampleAttempt($0.offset, $0.element) }, durationMs: 10)
}

/// A run whose only non-passing cases are known issues that still reproduce.
private func knownRun() -> RunResult {
    RunResult(run: sampleInfo(), cases: [
        knownCase("two", "a", variant: "grammar", [.passed], issue: nil),
        knownCase("two", "a", variant: "prompt-only", [.failed]),
        knownCase("two", "b", variant: "grammar", [.passed], issue: nil),
        knownCase("two", "b", variant: "prompt-only", [.failed], issue: KnownIssue(reason: "small model")),
    ])
}

/// A run where a known issue no longer reproduces.
private func fixedRun() -> RunResult {
    RunResult(run: sampleInfo(), cases: [knownCase("two", "a", variant: "prompt-only", [.passed])])
}

@Test func knownIssuesDoNotFailTheRunButFixedOnesDo() {
    let known = knownRun()
    #expect(known.summary.knownIssues == 2)
    #expect(known.summary.failed == 0 && known.summary.gatesFailed == 0)
    #expect(known.exitCode == 0)
    let fixed = fixedRun()
    #expect(fixed.cases[0].status == .failed && fixed.cases[0].gateHolds)
    #expect(fixed.summary.failed == 1 && fixed.summary.gatesFailed == 1 && fixed.summary.knownIssues == 0)
    #expect(fixed.exitCode == 1)
}

@Test func terminalCountsKnownIssuesAndGivesTheirReasonOnlyOnTheirLine() {
    let text = TerminalText.closing(GateVerdict(results: knownRun()))
    #expect(text == """
    4 cases, 2 passed, 0 failed, 2 known issues, 4 attempts, 53.3% of input tokens cached, 5.0 s
    All gates hold.
    """)
    let line = TerminalText.caseLine(knownRun().cases[1])
    #expect(line.hasPrefix("KNOWN two/a@prompt-only  0/1  0.01 s  — still failing: toolCalls.allPass: unexpected call getCityInfo(city: Paris); known issue: anyOf shown"))
    #expect(TerminalText.caseLine(knownRun().cases[0]) == "PASS  two/a@grammar  1/1  0.01 s")
}

@Test func terminalNamesAKnownIssueThatNoLongerReproduces() {
    let text = TerminalText.closing(GateVerdict(results: fixedRun()))
    #expect(text.contains("1 case failing the gate:"))
    #expect(text.contains("  FAIL two/a@prompt-only — known issue no longer reproduces: anyOf shown, not enforced <&> "
                          + "(https://developer.apple.com/forums/thread/812501) [matching any failure]; 1/1 attempts passed"))
    #expect(TerminalText.caseLine(fixedRun().cases[0]).hasPrefix("FAIL  two/a@prompt-only  1/1  0.01 s  — known issue no longer reproduces: "))
}

@Test(.enabled(if: xmllintRunnable)) func junitWithKnownIssuesValidatesAgainstTheXSD() throws {
    let run = RunResult(run: sampleInfo(), cases: knownRun().cases + fixedRun().cases.map {
        var moved = $0
        moved.suite = "fixed"
        return moved
    })
    let xml = JUnitReport.render(run)
    let result = try checkJUnit(xml)
    #expect(result.status == 0, "\(result.output)")
    #expect(xml.contains(#"<testsuite name="two@prompt-only" package="fmeval.two@prompt-only" id="1""#))
    #expect(xml.contains(#"tests="2" failures="0" errors="0" skipped="2""#))
    #expect(xml.contains(#"<skipped message="known issue: anyOf shown, not enforced &lt;&amp;&gt; (https://developer.apple.com/forums/thread/812501) [matching any failure]">"#))
    #expect(xml.contains(#"<skipped message="known issue: small model [matching any failure]">"#))
    #expect(xml.contains(#"<failure message="known issue no longer reproduces: anyOf shown"#))
    #expect(xml.contains(#"type="knownIssueNoLongerReproduces""#))
}

@Test func htmlShowsKnownIssueBadgeFilterAndLink() {
    let html = HTMLReport.render(knownRun())
    #expect(html.contains(#"<span class="badge knownIssue">knownIssue</span>"#))
    #expect(html.contains("<option>knownIssue</option>"))
    #expect(html.contains(#"<div><b>2</b>known issues</div>"#))
    #expect(html.contains(#"<a href="https://developer.apple.com/forums/thread/812501" rel="noopener noreferrer">"#))
    #expect(html.contains("known issue: anyOf shown, not enforced &lt;&amp;&gt;"))
    #expect(html.contains("All gates hold"))
    #expect(html.contains(#"<rect class="known-issue""#) && HTMLStyle.css.contains("svg .known-issue{fill:"))
    let green = HTMLReport.render(RunResult(run: sampleInfo(), cases: [sampleCase("s", "ok", [.passed])]))
    #expect(!green.contains("known issues</div>"))
}

@Test func htmlLinksOnlyHTTPURLs() {
    let hostile = RunResult(run: sampleInfo(), cases: [
        knownCase("s", "x", [.failed], issue: KnownIssue(reason: "r", url: "javascript:alert(1)")),
    ])
    let html = HTMLReport.render(hostile)
    #expect(!html.contains("href=\"javascript:"))
    #expect(html.contains("(javascript:alert(1))"))
}

@Test func baselineCallsAKnownIssueNeitherARegressionNorANewFailure() {
    let before = RunResult(run: sampleInfo(), cases: [
        sampleCase("two", "a", variant: "prompt-only", [.passed]),
        knownCase("two", "b", variant: "prompt-only", [.failed]),
    ])
    let after = RunResult(run: sampleInfo(), cases: [
        knownCase("two", "a", variant: "prompt-only", [.failed]),
        knownCase("two", "b", variant: "prompt-only", [.passed]),
        knownCase("two", "c", [.failed]),
    ])
    let comparison = BaselineComparison(baseline: before, current: after)
    #expect(comparison.entries.map(\.change) == [.knownIssue, .fixed, .knownIssue])
    #expect(comparison.entries.first?.before == .passed && comparison.entries.first?.after == .knownIssue)
    #expect(!comparison.hasRegressions)
    #expect(TerminalText.baselineTable(comparison).hasPrefix("Against the baseline: 1 fixed, 2 known-issue"))
}

@Test func abCountsAKnownIssueAsNotPassed() {
    let comparisons = ABComparison.variants(of: knownRun())
    #expect(comparisons.count == 1)
    let ab = comparisons.first
    #expect(ab?.a.name == "grammar" && ab?.b.name == "prompt-only")
    #expect(ab?.table.onlyA == 2 && ab?.table.bothPass == 0)
    #expect(ab?.flipped.map(\.statusB) == [.knownIssue, .knownIssue])
    let fixedAB = ABComparison.files(base: knownRun(), baseName: "old", candidate: fixedRun(), candidateName: "new")
    #expect(fixedAB.table.onlyB == 1)
}

@Test func knownIssuesRoundTripThroughResultsFilesAndMerge() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-known-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("results.json").path
    try ResultsFile.write(knownRun(), to: path)
    let back = try ResultsFile.load(path)
    #expect(back.version == 2)
    #expect(back.summary == knownRun().summary)
    #expect(back.cases.map(\.status) == [.passed, .knownIssue, .passed, .knownIssue])
    #expect(back.cases[1].knownIssue == forum)
    #expect(back.cases[0].knownIssue == nil)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""knownIssues":2"#))
    let merged = try MergeResults.merge([("a.json", back), ("b.json", fixedRun().renamed("other"))])
    #expect(merged.result.summary.knownIssues == 2)
    #expect(merged.result.summary.gatesFailed == 1)
}

@Test func versionOneResultsStillRead() throws {
    let run = sampleRun()
    // Sorted keys: the edits below must not depend on the order JSONEncoder happens to write members in.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let encoded = String(decoding: try encoder.encode(run), as: UTF8.self)
    let versionOne = encoded.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
        .replacingOccurrences(of: #""knownIssues":0,"#, with: "")
    #expect(versionOne.contains(#""version":1"#) && !versionOne.contains("knownIssues"))
    let loaded = try ResultsFile.decode(Data(versionOne.utf8), path: "old.json")
    #expect(loaded.version == 1)
    #expect(loaded.summary.knownIssues == 0)
    #expect(loaded.summary.failed == run.summary.failed)
    #expect(loaded.cases.allSatisfy { $0.knownIssue == nil })
}

extension RunResult {
    /// The same run with every case moved to suite `suite` (so two runs can be merged without overlap).
    fileprivate func renamed(_ suite: String) -> RunResult {
        RunResult(run: run, cases: cases.map {
            var moved = $0
            moved.suite = suite
            moved.id = CaseResult.stableID(suite: suite, caseID: $0.caseID, variant: $0.variant)
            return moved
        })
    }
}
