import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

@Test func progressLineShowsCountsBarAndClock() {
    let line = TerminalText.progress(done: 5, total: 40, passed: 3, failed: 1, errored: 1, elapsed: 67)
    #expect(line == "[ 5/40] [##..................] 3 passed  1 failed  1 error  1:07")
    #expect(TerminalText.progress(done: 0, total: 0, passed: 0, failed: 0, errored: 0, elapsed: 3725).hasSuffix("1:02:05"))
}

@Test func caseLinesNameStatusAndReason() {
    #expect(TerminalText.caseLine(sampleCase("s", "ok", [.passed])) == "PASS  s/ok  1/1  0.03 s")
    let failing = TerminalText.caseLine(sampleCase("s", "bad", [.failed], text: "Rome"))
    #expect(failing == "FAIL  s/bad  0/1  0.03 s  — toolCalls.allPass: unexpected call getCityInfo(city: Rome)")
    let flaky = TerminalText.caseLine(sampleCase("s", "wobbly", [.passed, .failed], gate: CaseGate(minPassRate: 0.5)))
    #expect(flaky.hasPrefix("FLAKY s/wobbly  1/2"))
    #expect(TerminalText.caseLine(sampleCase("s", "boom", [.error])).hasPrefix("ERROR s/boom  0/1"))
}

@Test func terminalTextNeverCarriesEscapeSequences() {
    let line = TerminalText.caseLine(sampleCase("s", "x\u{1B}[2J", [.failed], text: "a\nb\u{1B}[31m"))
    #expect(!line.contains("\u{1B}"))
    #expect(!line.contains("\n"))
    #expect(line.contains("x\u{241B}[2J"))
}

@Test func closingNamesEveryFailingCaseAndEndsWithTheVerdict() {
    let text = TerminalText.closing(GateVerdict(results: sampleRun()))
    #expect(text.hasPrefix("6 cases, 1 passed, 1 flaky, 3 failed, 1 error, 1 skipped, 44 attempts, "
        + "53.3% of input tokens cached, 5.0 s"))
    #expect(text.contains("4 cases failing the gate:"))
    for id in ["city-info/beijing", "city-info/timeout", "city-info/flaky-bad"] { #expect(text.contains(id), "\(id)") }
    #expect(!text.contains("city-info/paris"))
    #expect(text.split(separator: "\n").last?.hasPrefix("Gate failed: ") == true, "the verdict is the last line")
    let green = RunResult(run: sampleInfo(), cases: [sampleCase("s", "ok", [.passed])])
    #expect(TerminalText.closing(GateVerdict(results: green)).hasSuffix("All gates hold."))
}

@Test func baselineAndABTablesListTheCasesThatMoved() {
    let before = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.passed]), sampleCase("s", "b", [.failed])])
    let after = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.failed]), sampleCase("s", "b", [.passed])])
    let table = TerminalText.baselineTable(BaselineComparison(baseline: before, current: after))
    #expect(table == """
    Against the baseline: 1 regression, 1 fixed
      regression  s/a  (passed → failed)
      fixed       s/b  (failed → passed)
    """)
    let ab = TerminalText.abTable(ABComparison.files(base: before, baseName: "old", candidate: after, candidateName: "new"))
    #expect(ab.contains("A/B old (A) vs new (B) over 2 paired cases"))
    #expect(ab.contains("  A passes           0        1"))
    #expect(ab.contains("  flipped s/a: passed → failed"))
    #expect(ab.contains("McNemar exact p = 1.0000"))
}

@Test(arguments: [(0.0, 1, "0.0"), (0.95, 1, "1.0"), (12.345, 2, "12.35"), (-0.004, 2, "0.00"), (-1.5, 0, "-2"),
                  (99.94999, 1, "99.9"), (1e20, 1, "100000000000000000000.0"), (Double.nan, 1, "–"), (0.0625, 4, "0.0625")])
func fixedFormattingMatchesPrintf(value: Double, decimals: Int, expected: String) {
    #expect(Fixed.format(value, decimals) == expected)
}
