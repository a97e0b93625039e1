import FMEvaluate
import FMResults
import Testing
@testable import FMReport

/// Two suites with their own variants, finished in an interleaved order, plus a suite without variants.
private func mixedRun(variants: [String] = [], reversed: Bool = false) -> RunResult {
    var cases: [CaseResult] = []
    for index in 0..<4 {
        // sentiment: plain passes everything, terse fails c0–c2 → 3 discordant pairs against B: p = 0.25.
        cases.append(sampleCase("sentiment", "c\(index)", variant: "terse", [index < 3 ? .failed : .passed]))
        cases.append(sampleCase("sentiment", "c\(index)", variant: "plain", [.passed]))
    }
    for index in 0..<7 {
        // triage: prompt-only finishes first; enforced fails c0–c5, prompt-only passes all → p = 2/64.
        cases.append(sampleCase("triage", "t\(index)", variant: "prompt-only", [.passed]))
        cases.append(sampleCase("triage", "t\(index)", variant: "enforced", [index < 6 ? .failed : .passed]))
    }
    cases.append(sampleCase("triage", "only-enforced", variant: "enforced", [.passed]))
    for index in 0..<3 { cases.append(sampleCase("city-tools", "k\(index)", [.passed])) }
    return RunResult(run: sampleInfo(variants: variants), cases: reversed ? cases.reversed() : cases)
}

@Test func abComparesVariantsWithinEachSuiteOnly() throws {
    let comparisons = ABComparison.variants(of: mixedRun())
    #expect(comparisons.map(\.suite) == ["sentiment", "triage"])
    let sentiment = try #require(comparisons.first)
    #expect(sentiment.a.name == "plain" && sentiment.b.name == "terse")
    #expect(sentiment.table == PairedComparison(bothPass: 1, onlyA: 3, onlyB: 0, bothFail: 0))
    #expect(sentiment.a.passes == 4 && sentiment.b.passes == 1 && sentiment.a.cases == 4)
    #expect(abs(sentiment.pValue - 0.25) < 1e-12)
    #expect(sentiment.unpaired.isEmpty)
    #expect(sentiment.flipped.map(\.key) == ["sentiment/c0", "sentiment/c1", "sentiment/c2"])
    let triage = try #require(comparisons.last)
    #expect(triage.a.name == "enforced" && triage.b.name == "prompt-only")
    #expect(triage.table == PairedComparison(bothPass: 1, onlyA: 0, onlyB: 6, bothFail: 0))
    #expect(abs(triage.pValue - 0.03125) < 1e-12)
    #expect(triage.unpaired == ["triage/only-enforced"])
    #expect(triage.rows.map(\.key) == (0..<7).map { "triage/t\($0)" })
}

@Test func abComparisonsDoNotDependOnCompletionOrder() throws {
    let forward = ABComparison.variants(of: mixedRun())
    let backward = ABComparison.variants(of: mixedRun(reversed: true))
    #expect(forward.map(\.suite) == backward.map(\.suite))
    #expect(forward.map(\.a.name) == backward.map(\.a.name) && forward.map(\.b.name) == backward.map(\.b.name))
    #expect(forward.map(\.table) == backward.map(\.table))
    #expect(forward.map(\.pValue) == backward.map(\.pValue))
    #expect(forward.map { $0.rows.map(\.key) } == backward.map { $0.rows.map(\.key) })
    #expect(forward.map(\.unpaired) == backward.map(\.unpaired))
}

@Test func abReferenceFollowsVariantFlagOrder() throws {
    let comparisons = ABComparison.variants(of: mixedRun(variants: ["terse", "plain", "prompt-only"]))
    let sentiment = try #require(comparisons.first { $0.suite == "sentiment" })
    #expect(sentiment.a.name == "terse" && sentiment.b.name == "plain")
    #expect(sentiment.table == PairedComparison(bothPass: 1, onlyA: 0, onlyB: 3, bothFail: 0))
    let triage = try #require(comparisons.first { $0.suite == "triage" })
    #expect(triage.a.name == "prompt-only")
}

@Test func abSuitesWithOneConfigurationGiveNothing() {
    let cases = [sampleCase("city-tools", "k0", [.passed]), sampleCase("sentiment", "c0", variant: "plain", [.passed]),
                 sampleCase("triage", "t0", variant: "enforced", [.failed])]
    #expect(ABComparison.variants(of: RunResult(run: sampleInfo(), cases: cases)).isEmpty)
}

@Test func abVariantOrderPutsBaseThenFlagsThenNames() {
    #expect(VariantOrder.sorted(["zeta", nil, "beta", "alpha"], listed: ["zeta"]) == [nil, "zeta", "alpha", "beta"])
    #expect(VariantOrder.label(nil) == "base" && VariantOrder.label("terse") == "terse")
}

@Test func abSuiteLabelsTerminalAndHTML() throws {
    let comparisons = ABComparison.variants(of: mixedRun())
    let sentiment = try #require(comparisons.first)
    let text = ABText.terminal(sentiment)
    #expect(text.hasPrefix("A/B for suite sentiment:\nA/B plain (A) vs terse (B) over 4 paired cases"))
    #expect(!text.contains("one side only"))
    #expect(ABText.title(sentiment) == "A/B sentiment: plain vs terse")
    let html = HTMLReport.render(mixedRun(), comparisons: comparisons)
    #expect(html.contains("A/B sentiment: plain vs terse") && html.contains("A/B triage: enforced vs prompt-only"))
    let files = ABComparison.files(base: mixedRun(), baseName: "old.json", candidate: mixedRun(), candidateName: "new.json")
    #expect(files.suite == nil && !ABText.terminal(files).hasPrefix("A/B for suite"))
}

@Test func abRowsFollowDeclaredLinesNotCompletion() {
    var first = sampleCase("s", "zz", variant: "a", [.passed]), last = sampleCase("s", "aa", variant: "a", [.passed])
    first.source = "suites/s.yaml:9"
    last.source = "suites/s.yaml:30"
    let middle = sampleCase("s", "mm", variant: "a", [.passed]), tie = sampleCase("s", "ab", variant: "a", [.passed])
    #expect(VariantOrder.declared([last, middle, first, tie]).map(\.caseID) == ["zz", "ab", "mm", "aa"])
}
