import Testing
@testable import FMReport

// Exact references: 2 · Σ_{i≤k} C(n,i) / 2^n, computed with rational arithmetic.
@Test(arguments: [
    (1, 8, 0.0390625),          // n 9: 2·(1+9)/512
    (2, 8, 0.109375),           // n 10: 2·(1+10+45)/1024
    (0, 5, 0.0625),             // n 5: 2/32
    (0, 1, 1.0),
    (3, 3, 1.0),
    (0, 0, 1.0),
    (10, 0, 0.001953125),       // 2/1024
    (5, 15, 0.04138946533203125), // n 20: 2·21700/1048576
])
func exactPValueMatchesBinomialTail(b: Int, c: Int, expected: Double) {
    let p = McNemar.exactPValue(onlyA: b, onlyB: c)
    #expect(abs(p - expected) < 1e-12, "b=\(b) c=\(c): \(p)")
    #expect(McNemar.exactPValue(onlyA: c, onlyB: b) == p)
}

@Test func largeCountsStayFiniteAndOrdered() {
    // References from exact rational arithmetic (Python fractions + math.comb).
    let reference = McNemar.exactPValue(onlyA: 400, onlyB: 600)
    #expect(abs(reference / 2.7284641560660184e-10 - 1) < 1e-9)
    #expect(abs(McNemar.exactPValue(onlyA: 300, onlyB: 700) / 1.7665678007950136e-37 - 1) < 1e-9)
    let small = McNemar.exactPValue(onlyA: 400, onlyB: 600)
    let smaller = McNemar.exactPValue(onlyA: 300, onlyB: 700)
    #expect(small > 0 && small < 1e-8)
    #expect(smaller >= 0 && smaller < small)
    #expect(McNemar.exactPValue(onlyA: 5000, onlyB: 5001) > 0.9)
}

@Test func pairedComparisonTalliesCells() {
    let pairs: [(Bool, Bool)] = [(true, true), (true, false), (false, true), (false, true), (false, false)]
    let comparison = PairedComparison(pairs: pairs)
    #expect(comparison == PairedComparison(bothPass: 1, onlyA: 1, onlyB: 2, bothFail: 1))
    #expect(comparison.total == 5)
    #expect(comparison.passesA == 2)
    #expect(comparison.passesB == 3)
    #expect(comparison.pValue == 1.0)
}
