import Testing
@testable import FMReport
@testable import FMResults
import FMCore

/// A baseline and a run with a regression, a new failure, an old failure, a fix and an unchanged pass.
private func gatePair() -> (baseline: RunResult, current: RunResult) {
    let baseline = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "old", [.failed]), sampleCase("s", "regressed", [.passed]),
        sampleCase("s", "fixed", [.failed]), sampleCase("s", "same", [.passed]),
    ])
    let current = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "old", [.failed]), sampleCase("s", "new-bad", [.failed]),
        sampleCase("s", "regressed", [.failed]), sampleCase("s", "fixed", [.passed]),
        sampleCase("s", "same", [.passed]),
    ])
    return (baseline, current)
}

@Test func withoutABaselineEveryFailingGateFailsTheRun() {
    let (_, current) = gatePair()
    let verdict = GateVerdict(results: current)
    #expect(verdict.rule == .everyGate)
    #expect(verdict.failing.map(\.caseID) == ["old", "new-bad", "regressed"])
    #expect(verdict.exitCode == ExitStatus.failed && verdict.exitCode == current.exitCode)
    #expect(verdict.line == "Gate failed: 3 cases failed their gates (exit 1).")
    #expect(verdict.oldFailures.isEmpty)
}

@Test func failOnRegressionJudgesOnlyRegressionsAndNewFailuresAndListsRegressionsFirst() {
    let (baseline, current) = gatePair()
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let verdict = GateVerdict(results: current, baseline: comparison, failOnRegression: true)
    #expect(verdict.rule == .noRegressions)
    #expect(verdict.failing.map(\.caseID) == ["regressed", "new-bad"])
    #expect(verdict.failing.map(verdict.label) == ["REGRESSED", "NEW FAIL"])
    #expect(verdict.oldFailures.map(\.caseID) == ["old"])
    #expect(verdict.line == "Gate failed: 1 case regressed against the baseline, "
        + "1 case newly failing (not in the baseline) (exit 1).")
    let everyGate = GateVerdict(results: current, baseline: comparison)
    #expect(everyGate.failing.map(\.caseID) == ["regressed", "new-bad", "old"], "regressions first under every rule")
    #expect(everyGate.line.contains("1 case failed its gate"))
}

@Test func oldFailuresAloneHoldTheRegressionGate() {
    let cases = [sampleCase("s", "old", [.failed]), sampleCase("s", "ok", [.passed])]
    let baseline = RunResult(run: sampleInfo(), cases: cases)
    let current = RunResult(run: sampleInfo(), cases: cases)
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let verdict = GateVerdict(results: current, baseline: comparison, failOnRegression: true)
    #expect(verdict.holds && verdict.exitCode == ExitStatus.ok)
    #expect(verdict.line == "No regressions against the baseline: the gate holds "
        + "(1 case still failing as in the baseline).")
    #expect(!GateVerdict(results: current, baseline: comparison).holds, "without the flag the old failure fails")
}

@Test func anErrorIsExitThreeEvenWhenItFailedInTheBaselineToo() {
    let baseline = RunResult(run: sampleInfo(), cases: [sampleCase("s", "broken", [.error])])
    let current = RunResult(run: sampleInfo(), cases: [sampleCase("s", "broken", [.error])])
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let verdict = GateVerdict(results: current, baseline: comparison, failOnRegression: true)
    #expect(verdict.exitCode == ExitStatus.infrastructure)
    #expect(verdict.failing.map(verdict.label) == ["ERROR"])
    #expect(verdict.line == "Gate failed: 1 case hit an engine or infrastructure error (exit 3).")
}

@Test func aPassingRunHoldsEveryGate() {
    let run = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.passed])])
    #expect(GateVerdict(results: run).line == "All gates hold.")
    #expect(ReportInput(results: run).verdict.holds)
}
