import Testing
import FMEvaluate
@testable import FMReport
@testable import FMResults

/// Baseline and current runs crafted so every change kind occurs exactly once.
private func craftedPair() -> (RunResult, RunResult) {
    let gate = CaseGate(minPassRate: 0.5)
    let baseline = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "regressed", [.passed]),
        sampleCase("s", "fixed", [.failed]),
        sampleCase("s", "still", [.error]),
        sampleCase("s", "same", [.passed, .failed], gate: gate),
        sampleCase("s", "gone", [.passed]),
        sampleCase("s", "now-skipped", [.passed]),
    ], skipped: [SkippedCase(id: "s/was-skipped", suite: "s", caseID: "was-skipped", variant: nil, tags: [], cause: .filteredOut(expression: "tag:x"))])
    let current = RunResult(run: sampleInfo(), cases: [
        sampleCase("s", "regressed", [.error]),
        sampleCase("s", "fixed", [.passed]),
        sampleCase("s", "still", [.failed]),
        sampleCase("s", "same", [.passed, .passed], gate: gate),
        sampleCase("s", "brand-new-bad", [.failed]),
        sampleCase("s", "brand-new-good", [.passed]),
        sampleCase("s", "was-skipped", [.failed]),
    ], skipped: [SkippedCase(id: "s/now-skipped", suite: "s", caseID: "now-skipped", variant: nil, tags: [], cause: .filteredOut(expression: "tag:x"))])
    return (baseline, current)
}

@Test func baselineClassifiesEveryKindOfChange() {
    let (baseline, current) = craftedPair()
    let comparison = BaselineComparison(baseline: baseline, current: current)
    let byID = Dictionary(uniqueKeysWithValues: comparison.entries.map { ($0.id, $0.change) })
    #expect(byID["s/regressed"] == .regression)
    #expect(byID["s/fixed"] == .fixed)
    #expect(byID["s/still"] == .stillFailing)
    #expect(byID["s/same"] == .unchanged)
    #expect(byID["s/brand-new-bad"] == .newFailure)
    #expect(byID["s/brand-new-good"] == .added)
    #expect(byID["s/was-skipped"] == .newFailure)
    #expect(byID["s/now-skipped"] == .skipped)
    #expect(byID["s/gone"] == .removed)
    #expect(comparison.entries.count == 9)
    #expect(comparison.hasRegressions)
    #expect(comparison.counts[.regression] == 1 && comparison.counts[.newFailure] == 2)
}

@Test func onlyRegressionsAndNewFailuresTripTheGate() {
    let baseline = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.failed]), sampleCase("s", "b", [.passed])])
    let current = RunResult(run: sampleInfo(), cases: [sampleCase("s", "a", [.failed]), sampleCase("s", "b", [.passed])])
    #expect(!BaselineComparison(baseline: baseline, current: current).hasRegressions)
    #expect(BaselineChange.allCases.filter(\.failsGate) == [.regression, .newFailure])
}

@Test func abComparisonPairsVariantsOfOneRun() {
    var cases: [CaseResult] = []
    // 10 cases: A passes all, B fails cases 0–7 → 8 discordant pairs one way: p = 2/256.
    for index in 0..<10 {
        cases.append(sampleCase("s", "c\(index)", variant: "a", [.passed]))
        cases.append(sampleCase("s", "c\(index)", variant: "b", [index < 8 ? .failed : .passed]))
    }
    cases.append(sampleCase("s", "only-a", variant: "a", [.passed]))
    let run = RunResult(run: sampleInfo(variants: ["a", "b"]), cases: cases)
    let comparisons = ABComparison.variants(of: run)
    let comparison = try! #require(comparisons.first)
    #expect(comparisons.count == 1)
    #expect(comparison.a.name == "a" && comparison.b.name == "b")
    #expect(comparison.table == PairedComparison(bothPass: 2, onlyA: 8, onlyB: 0, bothFail: 0))
    #expect(abs(comparison.pValue - 0.0078125) < 1e-12)
    #expect(comparison.flipped.map(\.key) == (0..<8).map { "s/c\($0)" })
    #expect(comparison.unpaired == ["s/only-a"])
    #expect(comparison.a.passRate == 1.0 && comparison.b.passRate == 0.2)
    #expect(comparison.b.interval.lower > 0.05 && comparison.b.interval.upper < 0.52)
    #expect(ABText.verdict(comparison).contains("McNemar exact p = 0.0078 (significant at 5%)"))
}

@Test func abNeedsTwoConfigurations() {
    let run = RunResult(run: sampleInfo(), cases: [sampleCase("s", "c", [.passed])])
    #expect(ABComparison.variants(of: run).isEmpty)
}
