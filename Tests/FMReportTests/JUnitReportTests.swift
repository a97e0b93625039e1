import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

@Test(.enabled(if: xmllintRunnable)) func junitForEveryKindOfCaseValidatesAgainstTheXSD() throws {
    let xml = JUnitReport.render(sampleRun())
    let result = try checkJUnit(xml)
    #expect(result.status == 0, "\(result.output)")
}

@Test(.enabled(if: xmllintRunnable), arguments: [AttemptOutcome.passed, .failed, .error])
func junitForSingleOutcomeRunsValidates(outcome: AttemptOutcome) throws {
    let run = RunResult(run: sampleInfo(), cases: [sampleCase("s", "only", [outcome], text: hostileText)])
    let result = try checkJUnit(JUnitReport.render(run))
    #expect(result.status == 0, "\(result.output)")
}

@Test(.enabled(if: xmllintRunnable)) func junitForEmptyAndBlankNamedRunsValidates() throws {
    let blank = sampleCase("  ", " \n ", [.passed])
    var info = sampleInfo()
    info.startedAt = "not a date"
    let result = try checkJUnit(JUnitReport.render(RunResult(run: info, cases: [blank])))
    #expect(result.status == 0, "\(result.output)")
    #expect(try checkJUnit(JUnitReport.render(RunResult(run: sampleInfo(), cases: []))).status == 0)
}

@Test(.enabled(if: xmllintRunnable)) func xsdCheckCatchesASchemaViolation() throws {
    // The harness must be able to fail: a testsuite without the required hostname attribute.
    let xml = JUnitReport.render(sampleRun()).replacingOccurrences(of: " hostname=\"localhost\"", with: "")
    #expect(try checkJUnit(xml).status != 0)
}

@Test func junitMapsStatusesToFailureErrorAndSkipped() throws {
    let xml = JUnitReport.render(sampleRun())
    #expect(xml.contains("<testsuite name=\"city-info\" package=\"fmeval.city-info\" id=\"0\" timestamp=\"2026-11-30T12:00:00\""))
    #expect(xml.contains("tests=\"6\" failures=\"2\" errors=\"1\" skipped=\"1\""))
    let position = "file=\"suites/city-info.yaml\" line=\"12\""
    #expect(xml.contains("<testcase name=\"paris\" classname=\"city-info\" time=\"0.025\" \(position)/>"))
    #expect(xml.contains("<testcase name=\"flaky-ok\" classname=\"city-info\" time=\"0.500\" \(position)>"))
    #expect(xml.contains("<flakyFailure message=\"attempt 20: toolCalls.allPass: unexpected call"))
    #expect(xml.contains("<property name=\"fmeval.status.flaky-ok\" value=\"flaky (the gate holds)\"/>"))
    #expect(!xml.contains("fmeval.status.paris"))
    #expect(xml.contains("<failure message=\"10/20 attempts failed; toolCalls.allPass: unexpected call getCityInfo(city: Paris) (10 attempts)\" type=\"failed\">"))
    #expect(xml.contains("<error message=\"LanguageModelError.timeout: engine timed out after 30 s &lt;&amp;&gt;\" type=\"LanguageModelError.timeout\">"))
    #expect(xml.contains("<skipped message=\"selected out by --filter tag:adversarial\"></skipped>"))
    #expect(xml.contains("flaky-ok: flaky; 19/20 attempts passed (95.0%, 95% CI 76.4%–99.1%); gate minPassRate 0.9 holds"))
    #expect(xml.contains("<property name=\"fmeval.model.sha256\" value=\"ab12\"/>"))
    #expect(xml.contains("<property name=\"fmeval.cpu\" value=\"Test CPU &lt;x86&gt;\"/>"))
    #expect(!xml.contains("<script>"))
}

@Test func junitSplitsVariantsIntoTheirOwnSuites() {
    let run = RunResult(run: sampleInfo(variants: ["a", "b"]), cases: [
        sampleCase("s", "c1", variant: "a", [.passed]), sampleCase("s", "c1", variant: "b", [.failed]),
    ])
    let xml = JUnitReport.render(run)
    #expect(xml.contains("<testsuite name=\"s@a\" package=\"fmeval.s@a\" id=\"0\""))
    #expect(xml.contains("<testsuite name=\"s@b\" package=\"fmeval.s@b\" id=\"1\""))
    #expect(xml.contains("<property name=\"fmeval.variant\" value=\"b\"/>"))
}

@Test func junitNotesBaselineChanges() {
    let before = RunResult(run: sampleInfo(), cases: [sampleCase("s", "c", [.passed])])
    let after = RunResult(run: sampleInfo(), cases: [sampleCase("s", "c", [.failed])])
    let xml = JUnitReport.render(after, baseline: BaselineComparison(baseline: before, current: after))
    #expect(xml.contains("baseline: regression"))
}

@Test func timestampsAreCutToTheSchemaPattern() {
    #expect(JUnitReport.junitTimestamp("2026-11-30T12:00:00.123Z") == "2026-11-30T12:00:00")
    #expect(JUnitReport.junitTimestamp("2026-11-30 12:00") == "1970-01-01T00:00:00")
    #expect(JUnitReport.seconds(.nan) == "0.000")
    #expect(JUnitReport.seconds(-1) == "0.000")
    #expect(JUnitReport.seconds(1e20) == "100000000000000000000.000")
}

@Test func divergedDeterminismRerunsAreFailuresEverywhere() {
    var result = sampleCase("s", "wobbly", [.passed])
    result.determinism = DeterminismResult(diverged: true, attempt: 0, detail: "greedy attempt 0 diverged on rerun")
    let run = RunResult(run: sampleInfo(), cases: [result, sampleCase("s", "fine", [.passed])])
    #expect(run.exitCode == 1)
    let xml = JUnitReport.render(run)
    #expect(xml.contains("failures=\"1\""))
    #expect(xml.contains("<failure message=\"nondeterministic: greedy attempt 0 diverged on rerun\" type=\"nondeterministic\">"))
    let closing = TerminalText.closing(GateVerdict(results: run))
    #expect(closing.contains("  NONDET s/wobbly — nondeterministic: greedy attempt 0 diverged on rerun"))
    #expect(HTMLReport.render(run).contains("1 of 2 cases fail their gate or disagreed with a rerun"))
    #expect(GateVerdict(results: run).line
        == "Gate failed: 1 case passed but disagreed with a rerun (nondeterministic or history-dependent) (exit 1).")
}

@Test func historyDependentVerdictsAreFailuresEverywhere() {
    var result = sampleCase("s", "swayed", [.passed])
    result.contamination = ContaminationResult(
        after: ["s/first"], statuses: [.failed], dependsOnHistory: true, attempt: 0,
        detail: "passed in a fresh session, failed after 1 earlier case")
    var steady = sampleCase("s", "steady", [.passed])
    steady.contamination = ContaminationResult(after: ["s/first"], statuses: [.passed], dependsOnHistory: false)
    let run = RunResult(run: sampleInfo(), cases: [result, steady])
    #expect(run.exitCode == 1 && run.summary.historyDependent == 1)
    #expect(!result.holdsRun && steady.holdsRun)
    let xml = JUnitReport.render(run)
    #expect(xml.contains("failures=\"1\""))
    #expect(xml.contains("<failure message=\"history-dependent: passed in a fresh session, failed after 1 earlier "
        + "case\" type=\"historyDependent\">"), "\(xml)")
    let verdict = GateVerdict(results: run)
    #expect(verdict.failing.map(verdict.label) == ["HISTORY"])
    #expect(TerminalText.closing(verdict).contains(
        "  HISTORY s/swayed — history-dependent: passed in a fresh session, failed after 1 earlier case"))
    let page = HTMLReport.render(run)
    #expect(page.contains("1 of 2 cases fail their gate or disagreed with a rerun"))
    #expect(page.contains("History-dependent: passed in a fresh session, failed after 1 earlier case"))
    #expect(TerminalText.counts(run).contains("1 history-dependent"), "\(TerminalText.counts(run))")
}
