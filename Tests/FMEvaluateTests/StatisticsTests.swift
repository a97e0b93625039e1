import Foundation
import Testing
import FMCore
@testable import FMEvaluate

@Suite struct StatisticsTests {
    func close(_ a: Double, _ b: Double, _ tolerance: Double = 5e-5) -> Bool { abs(a - b) < tolerance }

    @Test func wilsonMatchesKnownValues() {
        // Reference values of the Wilson score interval at z = 1.959964.
        let half = WilsonInterval(successes: 5, trials: 10)
        #expect(close(half.lower, 0.236593) && close(half.upper, 0.763407))
        let all = WilsonInterval(successes: 20, trials: 20)
        #expect(close(all.lower, 0.838875) && all.upper == 1)
        let none = WilsonInterval(successes: 0, trials: 20)
        #expect(none.lower == 0 && close(none.upper, 0.161125))
        let most = WilsonInterval(successes: 19, trials: 20)
        #expect(close(most.lower, 0.763869) && close(most.upper, 0.991124))
        #expect(WilsonInterval(successes: 0, trials: 0) == WilsonInterval(lower: 0, upper: 1))
    }

    @Test func allPassIsPassed() {
        let verdict = CaseVerdict(outcomes: Array(repeating: .passed, count: 5))
        #expect(verdict.status == .passed)
        #expect(verdict.gateHolds)
        #expect(verdict.passRate == 1)
    }

    @Test func mixedWithoutGateFails() {
        let verdict = CaseVerdict(outcomes: [.passed, .failed, .passed])
        #expect(verdict.status == .failed)
        #expect(verdict.reason == "2/3 attempts passed; every attempt must pass")
    }

    @Test func mixedWithHoldingGateIsFlaky() {
        let outcomes: [AttemptOutcome] = Array(repeating: .passed, count: 19) + [.failed]
        let verdict = CaseVerdict(outcomes: outcomes, gate: CaseGate(minPassRate: 0.95))
        #expect(verdict.status == .flaky)
        #expect(verdict.gateHolds)
        let stricter = CaseVerdict(outcomes: outcomes, gate: CaseGate(minPassRate: 0.96))
        #expect(stricter.status == .failed)
        #expect(stricter.reason == "19/20 attempts passed; pass rate 0.95 < minPassRate 0.96")
    }

    @Test func minPassesGate() {
        let outcomes: [AttemptOutcome] = [.passed, .failed, .passed, .failed]
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 2)).status == .flaky)
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 3)).status == .failed)
        #expect(CaseVerdict(outcomes: [.failed, .failed], gate: CaseGate(minPasses: 0)).status == .flaky)
        #expect(CaseGate(minPasses: 5).problems(repeats: 3).count == 1)
        #expect(CaseGate(minPassRate: 1.5).problems(repeats: 3).count == 1)
    }

    @Test func errorsStayDistinctFromFailures() {
        let verdict = CaseVerdict(outcomes: [.passed, .error, .failed], gate: CaseGate(minPassRate: 0.1))
        #expect(verdict.status == .error)
        #expect(!verdict.gateHolds)
        #expect(verdict.errors == 1 && verdict.failures == 1 && verdict.passes == 1)
        #expect(verdict.passRate == 0.5)
        #expect(CaseVerdict(outcomes: []).status == .error)
    }

    @Test func classificationSummary() {
        let observations = [
            ("cat", "cat"), ("cat", "cat"), ("cat", "dog"), ("dog", "dog"), ("dog", "bird"), ("dog", nil), ("bird", "bird"), ("fish", "cat"),
        ].map { ClassificationObservation(expected: $0.0, predicted: $0.1) }
        let summary = ClassificationSummary(labels: ["cat", "dog"], observations: observations)
        #expect(summary.total == 6)
        #expect(summary.unknownExpectedLabels == ["bird", "fish"])
        #expect(summary.count(expected: "cat", predicted: "dog") == 1)
        #expect(summary.count(expected: "dog", predicted: ClassificationSummary.outOfEnum) == 2)
        #expect(close(summary.accuracy, 3.0 / 6.0))
        #expect(close(summary.outOfEnumRate, 2.0 / 6.0))
        let cat = summary.scores[0], dog = summary.scores[1]
        #expect(cat.precision == 1 && close(cat.recall ?? -1, 2.0 / 3.0) && close(cat.f1 ?? -1, 0.8))
        #expect(close(dog.precision ?? -1, 0.5) && close(dog.recall ?? -1, 1.0 / 3.0) && close(dog.f1 ?? -1, 0.4))
        #expect(close(summary.macroF1 ?? -1, 0.6))
        let empty = ClassificationSummary(labels: ["a"], observations: [])
        #expect(empty.scores[0].precision == nil && empty.macroF1 == nil && empty.accuracy == 0)
    }
}

@Suite struct MetricAggregateTests {
    @Test func aggregatesScoresAndPassRates() throws {
        let metrics: [Metric] = [
            .scoring("p", 1), .scoring("p", 0.5), .scoring("p", 0), .scoring("p", 0.5), .ignore("p", rationale: "n/a"), .scoring("p", .nan),
            .passing("a"), .failing("a", rationale: "x"), .passing("a"), .passing("a"),
        ]
        let all = MetricAggregate.all(metrics)
        #expect(all.map(\.name) == ["p", "a"])
        let p = all[0]
        #expect(p.count == 4 && p.excluded == 2)
        #expect(p.mean == 0.5 && p.median == 0.5 && p.minimum == 0 && p.maximum == 1)
        // Sample standard deviation of 0, 0.5, 0.5, 1: sqrt(0.5 / 3).
        #expect(abs((p.standardDeviation ?? 0) - 0.408248) < 1e-6)
        #expect(all[1].mean == 0.75 && all[1].median == 1)
        let single = MetricAggregate(name: "s", metrics: [.scoring("s", 3)])
        #expect(single.standardDeviation == nil && single.median == 3)
        #expect(MetricAggregate(name: "none", metrics: metrics).mean == nil)
    }
}

@Test func classificationMatrixEncodesInLabelOrderEveryTime() throws {
    let labels = ["positive", "negative", "neutral", "mixed", "unknown"]
    let observations = labels.map { ClassificationObservation(expected: $0, predicted: "negative") }
    let summary = ClassificationSummary(labels: labels, observations: observations)
    let text = try ContentEncoder.jsonText(summary)
    let matrix = try #require(text.range(of: #""matrix":"#))
    let rowOrder = labels.compactMap { text.range(of: "\"\($0)\":{", range: matrix.upperBound..<text.endIndex)?.lowerBound }
    #expect(rowOrder.count == labels.count)
    #expect(rowOrder == rowOrder.sorted())
    #expect(text.contains(#""positive":{"positive":0,"negative":1,"neutral":0,"mixed":0,"unknown":0,"(out of enum)":0}"#))
    let decoded = try JSONDecoder().decode(ClassificationSummary.self, from: Data(text.utf8))
    #expect(decoded == summary)
}
