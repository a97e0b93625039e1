import Foundation
import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// The baseline and current run of the JUnit gate tests: a regression, an old failure, a known issue,
/// a flaky case whose gate holds and a new failing case.
private func gateRuns() -> (baseline: RunResult, current: RunResult) {
    let flaky = Array(repeating: AttemptOutcome.passed, count: 9) + [.failed]
    var known = sampleCase("s", "known", [.failed])
    known = CaseResult(id: known.id, suite: "s", caseID: "known", source: "suites/s.yaml:30",
                       knownIssue: KnownIssue(reason: "small model", url: "https://example.com/1"),
                       attempts: known.attempts, durationMs: 25)
    let baseline = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "regressed", [.passed]), sampleCase("s", "old", [.failed]), known,
        sampleCase("s", "flaky", [.passed]),
    ])
    let current = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "regressed", [.failed]), sampleCase("s", "old", [.failed]), known,
        sampleCase("s", "flaky", flaky, gate: CaseGate(minPassRate: 0.8)), sampleCase("s", "new", [.failed]),
    ])
    return (baseline, current)
}

/// The `testcase` element of case `id` in `xml`, up to its closing tag.
private func testcase(_ id: String, in xml: String) -> String {
    guard let start = xml.range(of: "<testcase name=\"\(id)\"") else { return "" }
    let rest = xml[start.lowerBound...]
    let end = rest.range(of: "</testcase>") ?? rest.range(of: "/>")!
    return String(rest[..<end.upperBound])
}

@Test func junitFailuresAreExactlyTheCasesThatFailTheGate() throws {
    let (baseline, current) = gateRuns()
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let verdict = GateVerdict(results: current, baseline: comparison, failOnRegression: true)
    let xml = JUnitReport.render(verdict)
    #expect(verdict.exitCode == 1)
    #expect(xml.contains("tests=\"5\" failures=\"2\" errors=\"0\" skipped=\"2\""))
    #expect(xml.components(separatedBy: "<failure ").count - 1 == verdict.failing.count)
    #expect(testcase("regressed", in: xml).contains("<failure message=\"REGRESSED: toolCalls.allPass: "))
    #expect(testcase("new", in: xml).contains("<failure message=\"NEW FAIL: toolCalls.allPass: "))
    #expect(testcase("old", in: xml).contains("<skipped message=\"old failure (failed in the baseline too): "))
    #expect(testcase("known", in: xml).contains("<skipped message=\"known issue: small model"))
    #expect(testcase("known", in: xml).contains("file=\"suites/s.yaml\" line=\"30\""))
    let flaky = testcase("flaky", in: xml)
    #expect(flaky.contains("<flakyFailure message=\"attempt 10: toolCalls.allPass: "))
    #expect(!flaky.contains("<failure") && !flaky.contains("<skipped"))
    for (id, status) in [("regressed", "regressed"), ("new", "new failure"), ("old", "old failure"),
                         ("known", "known issue"), ("flaky", "flaky")] {
        #expect(xml.contains("<property name=\"fmeval.status.\(id)\" value=\"\(status) ("), "\(id)")
    }
    #expect(try checkJUnit(xml).status == 0)
}

@Test func withoutFailOnRegressionOldFailuresAreFailuresAgain() throws {
    let (baseline, current) = gateRuns()
    let verdict = GateVerdict(results: current, baseline: BaselineComparison(baseline: baseline, current: current))
    let xml = JUnitReport.render(verdict)
    #expect(xml.contains("tests=\"5\" failures=\"3\" errors=\"0\" skipped=\"1\""))
    #expect(testcase("old", in: xml).contains("<failure message=\"toolCalls.allPass: "))
    let input = ReportInput(results: current, baseline: verdict.baseline, failOnRegression: true)
    #expect(try ReportFormat.junit.render(input) == Data(JUnitReport.render(input.verdict).utf8))
}

@Test func junitCheckerRejectsABrokenExtension() throws {
    let xml = JUnitReport.render(sampleRun())
    #expect(try checkJUnit(xml.replacingOccurrences(of: "line=\"12\"", with: "line=\"zero\"")).status != 0)
    let flakyInFailure = xml.replacingOccurrences(of: "<failure message=", with:
        "<flakyFailure type=\"failed\"/><failure message=")
    #expect(try checkJUnit(flakyInFailure).status != 0)
}
