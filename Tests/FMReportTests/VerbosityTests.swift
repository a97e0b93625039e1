import Testing
import FMCore
import FMEvaluate
@testable import FMReport
@testable import FMResults

@Test func eachVerbosityShowsTheLinesItPromises() {
    let pass = sampleCase("s", "ok", [.passed])
    let fail = sampleCase("s", "bad", [.failed])
    let flaky = sampleCase("s", "wobbly", [.passed, .failed], gate: CaseGate(minPassRate: 0.5))
    #expect(Verbosity.allCases.map { $0.showsLine(for: pass) } == [false, false, true])
    #expect(Verbosity.allCases.map { $0.showsLine(for: fail) } == [true, true, true])
    #expect(Verbosity.allCases.map { $0.showsLine(for: flaky) } == [false, true, true])
    #expect(Verbosity.allCases.map { $0.showsReason(for: fail) } == [false, false, true],
            "a failing reason comes once, in the closing block, unless -v")
    #expect(Verbosity.allCases.map { $0.showsReason(for: flaky) } == [true, true, true])
}

/// A baseline and a run under `--fail-on-regression`: one regression, one old failure, one pass.
private func regressionVerdict() -> (GateVerdict, ReportInput) {
    let baseline = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "old", [.failed]), sampleCase("s", "slipped", [.passed]), sampleCase("s", "ok", [.passed]),
    ])
    let current = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "old", [.failed]), sampleCase("s", "slipped", [.failed], text: "Rome"),
        sampleCase("s", "ok", [.passed]),
    ])
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let input = ReportInput(results: current, baseline: comparison, failOnRegression: true)
    return (input.verdict, input)
}

@Test func theClosingBlockPutsRegressionsFirstAndEndsWithTheVerdict() {
    let (verdict, _) = regressionVerdict()
    let lines = TerminalText.closing(verdict).split(separator: "\n").map(String.init)
    #expect(lines[1] == "1 case failing the gate:")
    #expect(lines[2].hasPrefix("  REGRESSED s/slipped — "))
    #expect(lines[3] == "1 case still failing as in the baseline (not failing the gate):")
    #expect(lines[4].hasPrefix("  FAIL s/old — "))
    #expect(lines.last == "Gate failed: 1 case regressed against the baseline (exit 1).")
    let quiet = TerminalText.closing(verdict, verbosity: .quiet)
    #expect(!quiet.contains("s/old"), "-q counts the old failures in the verdict line only")
    #expect(quiet.hasSuffix(verdict.line))
}

@Test func detailsAreOneLineByDefaultTablesWithVerboseAndNoneWithQuiet() {
    let (_, input) = regressionVerdict()
    #expect(TerminalText.details(input, verbosity: .quiet).isEmpty)
    let normal = TerminalText.details(input)
    #expect(normal.count == 1 && !normal[0].contains("\n"))
    #expect(normal[0].hasPrefix("Against the baseline: "))
    let verbose = TerminalText.details(input, verbosity: .verbose)
    #expect(verbose.count == 1 && verbose[0].hasPrefix(normal[0]) && verbose[0].contains("\n"),
            "-v prints the table that the default line opens")
}

@Test func quietUnderFailOnRegressionShowsOnlyTheCasesThatFailTheGate() {
    let before = RunResult(run: sampleInfo(), cases: [sampleCase("s", "old", [.failed]),
                                                      sampleCase("s", "reg", [.passed])])
    let now = [sampleCase("s", "old", [.failed]), sampleCase("s", "reg", [.failed]),
               sampleCase("s", "new", [.failed])]
    let judge = GateJudge(baseline: before, failOnRegression: true)
    #expect(now.map { Verbosity.quiet.showsLine(for: $0, judge: judge) } == [false, true, true])
    #expect(now.map { Verbosity.normal.showsLine(for: $0, judge: judge) } == [true, true, true],
            "the default shows old failures too")
    let current = RunResult(run: sampleInfo(), cases: now)
    let verdict = GateVerdict(results: current, baseline: BaselineComparison(baseline: before, current: current),
                              failOnRegression: true)
    #expect(now.map(judge.failsGate) == now.map(verdict.failsGate), "the judge is the verdict's rule")
    #expect(now.map(GateJudge.everyGate.failsGate) == [true, true, true])
    let lines = Locked<[String]>([])
    let progress = LiveProgress(mode: .plain, style: .plain, verbosity: .quiet, judge: judge,
                                clock: { 0 }, write: { text in lines.withLock { $0.append(text) } })
    for (index, result) in now.enumerated() { progress.caseFinished(result, finished: index + 1, total: now.count) }
    #expect(lines.withLock { $0 }.count == 2 && !lines.withLock { $0 }.contains { $0.contains("s/old") })
}
