import Foundation
import Testing
@testable import FMEvaluate

@Suite struct KnownIssueTests {
    let issue = KnownIssue(reason: "guide shown but not enforced", url: "https://developer.apple.com/forums/thread/812501")

    @Test func aStillFailingGateIsAKnownIssueNotAFailure() {
        let verdict = CaseVerdict(outcomes: [.failed], knownIssue: issue)
        #expect(verdict.status == .knownIssue)
        #expect(!verdict.gateHolds)
        #expect(verdict.reason == "known issue: guide shown but not enforced (https://developer.apple.com/forums/thread/812501) "
                + "[matching any failure]; 0/1 attempts passed; every attempt must pass")
    }

    @Test func aPassingGateMeansTheKnownIssueNoLongerReproduces() {
        let verdict = CaseVerdict(outcomes: [.passed, .passed], knownIssue: issue)
        #expect(verdict.status == .failed)
        #expect(verdict.gateHolds)
        #expect(verdict.reason.hasPrefix("known issue no longer reproduces: guide shown but not enforced "
                                         + "(https://developer.apple.com/forums/thread/812501) [matching any failure]; 2/2 attempts passed"))
    }

    @Test func theGateDecidesWhetherTheIssueStillReproduces() {
        let outcomes: [AttemptOutcome] = [.passed, .passed, .failed]
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 2), knownIssue: issue).status == .failed)
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 3), knownIssue: issue).status == .knownIssue)
        #expect(CaseVerdict(outcomes: outcomes, knownIssue: KnownIssue(reason: "flaky upstream")).reason
                == "known issue: flaky upstream [matching any failure]; 2/3 attempts passed; every attempt must pass")
    }

    /// Swift Testing's `withKnownIssue(matching:)`: a failure the issue does not name fails the case.
    @Test func aFailureTheIssueDoesNotMatchFailsTheCase() {
        let equals = KnownIssue(reason: "wrong label", matching: ["equals"])
        let verdict = CaseVerdict(outcomes: [.failed], knownIssue: equals, uncovered: "contains (attempt 1: no 'x')")
        #expect(verdict.status == .failed && !verdict.gateHolds)
        #expect(verdict.reason == "known issue wrong label [matching equals] does not cover: contains (attempt 1: no 'x'); "
                + "0/1 attempts passed; every attempt must pass")
        #expect(CaseVerdict(outcomes: [.failed], knownIssue: equals).status == .knownIssue)
    }

    @Test func anAttemptIsCoveredByItsErrorOrByEveryFailingMetric() {
        let issue = KnownIssue(reason: "r", matching: ["equals", "toolCalls", "refusal"])
        #expect(issue.uncoveredFailure(errorName: nil, failingMetrics: ["equals"]) == nil)
        #expect(issue.uncoveredFailure(errorName: nil, failingMetrics: ["toolCalls.percentagePass"]) == nil, "a metric by its kind")
        #expect(issue.uncoveredFailure(errorName: nil, failingMetrics: ["equals", "contains"]) == "contains")
        #expect(issue.uncoveredFailure(errorName: "refusal", failingMetrics: ["response", "contains"]) == nil, "the error is the cause")
        #expect(issue.uncoveredFailure(errorName: "guardrailViolation", failingMetrics: ["response"]) == "response")
        #expect(KnownIssue(reason: "r").uncoveredFailure(errorName: "x", failingMetrics: ["anything"]) == nil, "no matching: any failure")
    }

    @Test func anIntermittentIssueThatPassesIsNotNoLongerReproduces() {
        let issue = KnownIssue(reason: "sometimes", matching: ["equals"], intermittent: true)
        let passed = CaseVerdict(outcomes: [.passed], knownIssue: issue)
        #expect(passed.status == .passed)
        #expect(passed.reason.hasPrefix("known issue sometimes [matching equals, intermittent] did not reproduce this run"))
        #expect(CaseVerdict(outcomes: [.failed], knownIssue: issue).status == .knownIssue)
    }

    @Test func matchingAndIntermittentEncodeOnlyWhenSet() throws {
        let plain = try JSONEncoder().encode(KnownIssue(reason: "r"))
        #expect(String(decoding: plain, as: UTF8.self) == #"{"reason":"r"}"#, "results written before matching keep their shape")
        let full = KnownIssue(reason: "r", matching: ["equals"], intermittent: true)
        #expect(try JSONDecoder().decode(KnownIssue.self, from: JSONEncoder().encode(full)) == full)
    }

    @Test func errorsStayErrorsUnderAKnownIssue() {
        let verdict = CaseVerdict(outcomes: [.failed, .error], knownIssue: issue)
        #expect(verdict.status == .error)
        #expect(!verdict.reason.contains("known issue"))
        #expect(CaseVerdict(outcomes: [], knownIssue: issue).status == .error)
    }

    @Test func descriptionShowsTheURLWhenThereIsOne() {
        #expect(issue.description == "guide shown but not enforced (https://developer.apple.com/forums/thread/812501)")
        #expect(KnownIssue(reason: "small model").description == "small model")
    }

    @Test func onlyAbsoluteHTTPLinksAreTrackingURLs() {
        #expect(KnownIssue.urlProblem("https://github.com/o/r/issues/1") == nil)
        #expect(KnownIssue.urlProblem("http://example.com/bug") == nil)
        #expect(KnownIssue.urlProblem("ftp://example.com/bug")?.contains("must be an http or https link, not ftp:") == true)
        #expect(KnownIssue.urlProblem("javascript:alert(1)")?.contains("not javascript:") == true)
        #expect(KnownIssue.urlProblem("github.com/o/r/issues/1")?.contains("is not a URL") == true)
        #expect(KnownIssue.urlProblem("https://")?.contains("no host") == true)
    }
}
