import Testing
@testable import FMReport
import FMResults

// Quantiles of the standard normal distribution, from tables to seven significant digits or more.
@Test(arguments: [
    (0.975, 1.959964), (0.8, 0.841621), (0.5, 0.0), (0.9, 1.281552), (0.999, 3.090232), (0.01, -2.326348),
    (0.02, -2.053749), (0.98, 2.053749), (1e-10, -6.361341),
])
func normalQuantileMatchesTables(p: Double, expected: Double) {
    #expect(abs(PowerPlan.normalQuantile(p) - expected) < 1e-5, "p=\(p): \(PowerPlan.normalQuantile(p))")
}

@Test func normalQuantileIsExactToDoublePrecisionAndSymmetric() {
    #expect(abs(PowerPlan.normalQuantile(0.975) - 1.959963984540054) < 1e-12)
    for p in [0.001, 0.02425, 0.1, 0.3, 0.45] {
        #expect(abs(PowerPlan.normalQuantile(p) + PowerPlan.normalQuantile(1 - p)) < 1e-12, "p=\(p)")
    }
    #expect(PowerPlan.normalQuantile(0) == -.infinity && PowerPlan.normalQuantile(1) == .infinity)
    #expect(PowerPlan.normalQuantile(1.5).isNaN && PowerPlan.normalQuantile(-0.1).isNaN)
}

// By hand: p₀ 0.5, d 0.05: (1.959964 · 0.5 + 0.841621 · √(0.45 · 0.55))² / 0.05² = 1.398683² / 0.0025 = 782.53.
@Test(arguments: [
    (0.5, 0.05, 0.8, 783), (0.9, 0.05, 0.8, 316), (1.0, 0.05, 0.8, 14), (0.5, 0.05, 0.9, 1047),
])
func gateTrialsFollowTheOneSampleFormula(rate: Double, drop: Double, power: Double, expected: Int) {
    #expect(PowerPlan.gateTrials(passRate: rate, drop: drop, power: power) == expected)
}

@Test func gateTrialsRefuseADropThatCannotHappen() {
    #expect(PowerPlan.gateTrials(passRate: 0.03, drop: 0.05) == nil)
    #expect(PowerPlan.gateTrials(passRate: 0.5, drop: 0) == nil)
    #expect(PowerPlan.gateTrials(passRate: 0.5, drop: 0.05, power: 1) == nil)
}

// By hand: ψ 0.1, δ 0.05: (1.959964 · √0.1 + 0.841621 · √(0.1 − 0.0025))² / 0.0025 = 0.882636² / 0.0025 = 311.59.
@Test(arguments: [
    (0.1, 0.05, 0.8, 312), (0.5, 0.25, 0.8, 61), (0.1, 0.05, 0.9, 417), (0.1, -0.05, 0.8, 312),
    (0.05, 0.05, 0.8, 155), (0.01, 0.05, 0.8, 155),
])
func pairedCasesFollowConnorsFormula(discordance: Double, difference: Double, power: Double, expected: Int) {
    #expect(PowerPlan.pairedCases(discordance: discordance, difference: difference, power: power) == expected)
}

@Test func pairedCasesNeedADifference() {
    #expect(PowerPlan.pairedCases(discordance: 0.2, difference: 0) == nil)
    #expect(PowerPlan.pairedCases(discordance: 1.2, difference: 0.1) == nil)
}

@Test func casesAreTrialsOverRepeatsRoundedUp() {
    #expect(PowerPlan.cases(trials: 783, repeats: 3) == 261)
    #expect(PowerPlan.cases(trials: 784, repeats: 3) == 262)
    #expect(PowerPlan.cases(trials: 10, repeats: 0) == 10)
}

@Test func planRowsSayWhatWasAssumedAndWhetherTheSuiteIsEnough() {
    let unknown = PlanRow.gate(suite: "sentiment", cases: 6, repeats: 3, passRate: nil, run: nil, detect: 0.05,
                               power: 0.8)
    #expect(unknown.used == 0.5 && unknown.needed == 783 && unknown.casesNeeded == 261)
    #expect(unknown.verdict == "underpowered: needs about 261 cases; you have 6")
    let big = PlanRow.gate(suite: "big", cases: 400, repeats: 1, passRate: 0.9, run: 7, detect: 0.05, power: 0.8)
    #expect(big.verdict == "enough")
    let ab = PlanRow.ab(suite: "s", reference: "plain", variant: "terse", cases: 20, repeats: 5, discordance: nil,
                        run: nil, detect: 0.05, power: 0.8)
    #expect(ab.used == 0.1 && ab.casesNeeded == 312)
    #expect(ab.verdict == "underpowered: needs about 312 paired cases; you have 20")
    let impossible = PlanRow.gate(suite: "low", cases: 5, repeats: 1, passRate: 0.02, run: 1, detect: 0.05,
                                  power: 0.8)
    #expect(impossible.verdict == "cannot drop 5.0% below 2.0%")
    let table = PlanText.table([unknown, big, ab]).split(separator: "\n").map(String.init)
    #expect(table[0].hasPrefix("suite      test                cases  repeats  measured"))
    #expect(table[1].contains("unknown (50.0% assumed)") && table[1].contains("783 trials"))
    #expect(table[2].contains("90.0% (run #7)") && table[2].hasSuffix("enough"))
    #expect(table[3].contains("A/B plain vs terse") && table[3].contains("unknown (10.0% discordant assumed)"))
}

// Six pairs, five broken by B: ψ = δ = 5/6 needs (1.96 · √(5/6) + 0.8416 · √(5/36))² / (25/36) = 6.37 → 7 pairs.
@Test func nonSignificantABSaysHowManyPairsItsDifferenceNeeds() {
    var before: [CaseResult] = [], after: [CaseResult] = []
    for index in 0..<6 {
        before.append(sampleCase("s", "c\(index)", [.passed]))
        after.append(sampleCase("s", "c\(index)", [index < 1 ? .passed : .failed]))
    }
    let ab = ABComparison.files(base: RunResult(run: sampleInfo(), cases: before), baseName: "old",
                                candidate: RunResult(run: sampleInfo(), cases: after), candidateName: "new")
    #expect(ab.pValue >= 0.05 && ab.pairsNeeded == 7)
    #expect(TerminalText.abTable(ab).contains("\n  a difference this size needs about 7 paired cases; you have 6"))
    let html = HTMLReport.render(RunResult(run: sampleInfo(), cases: after), comparisons: [ab])
    #expect(html.contains("<p class=\"muted\">a difference this size needs about 7 paired cases; you have 6</p>"))
    let same = ABComparison.files(base: RunResult(run: sampleInfo(), cases: before), baseName: "old",
                                  candidate: RunResult(run: sampleInfo(), cases: before), candidateName: "new")
    #expect(same.underpoweredNote == nil && !TerminalText.abTable(same).contains("needs about"))
}
