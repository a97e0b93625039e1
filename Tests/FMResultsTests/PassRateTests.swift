import Testing
import FMCore
import FMEvaluate
@testable import FMResults

/// A case of suite `s` from its attempt outcomes, with `gate` and `knownIssue`.
func passRateCase(_ id: String, _ outcomes: [AttemptOutcome], gate: CaseGate = CaseGate(),
                  knownIssue: KnownIssue? = nil) -> CaseResult {
    let attempts = outcomes.enumerated().map { index, outcome in
        AttemptResult(index: index, status: outcome, text: "x", transcript: Transcript(), usage: Usage(),
                      metrics: [Metric(name: "equals", value: outcome == .passed ? .passing : .failing)],
                      durationMs: 1)
    }
    return CaseResult(id: "s/\(id)", suite: "s", caseID: id, gate: gate, knownIssue: knownIssue,
                      attempts: attempts, durationMs: 1)
}

/// Every kind of case: what the one pass rate counts, and how it differs from holding the run.
@Test func passRateCountsGatesThatHoldNotTheExitCode() {
    let cases = [
        passRateCase("passed", [.passed]),
        passRateCase("flaky-holds", [.passed, .failed], gate: CaseGate(minPassRate: 0.5)),
        passRateCase("flaky-fails", [.passed, .failed], gate: CaseGate(minPassRate: 0.9)),
        passRateCase("failed", [.failed]),
        passRateCase("error", [.error]),
        passRateCase("known", [.failed], knownIssue: KnownIssue(reason: "small model")),
        passRateCase("known-fixed", [.passed], knownIssue: KnownIssue(reason: "small model")),
    ]
    #expect(cases.map(PassRate.passes) == [true, true, false, false, false, false, true])
    #expect(cases[5].status == .knownIssue && cases[5].holdsRun, "a reproducing known issue holds the run")
    #expect(cases[6].status == .failed && !cases[6].holdsRun, "a fixed known issue fails the run")
    let rate = PassRate(cases)
    #expect(rate == PassRate(passing: 3, cases: 7) && rate.rate == 3.0 / 7.0)
    #expect(rate.interval == WilsonInterval(successes: 3, trials: 7))
    #expect(PassRate([CaseResult]()).rate == 0)
}
