import Testing
@testable import FMEvaluate

@Suite struct KnownIssueTests {
    let issue = KnownIssue(reason: "guide shown but not enforced", url: "https://developer.apple.com/forums/thread/812501")

    @Test func aStillFailingGateIsAKnownIssueNotAFailure() {
        let verdict = CaseVerdict(outcomes: [.failed], knownIssue: issue)
        #expect(verdict.status == .knownIssue)
        #expect(!verdict.gateHolds)
        #expect(verdict.reason == "known issue: guide shown but not enforced (https://developer.apple.com/forums/thread/812501); 0/1 attempts passed; every attempt must pass")
    }

    @Test func aPassingGateMeansTheKnownIssueNoLongerReproduces() {
        let verdict = CaseVerdict(outcomes: [.passed, .passed], knownIssue: issue)
        #expect(verdict.status == .failed)
        #expect(verdict.gateHolds)
        #expect(verdict.reason.hasPrefix("known issue no longer reproduces: guide shown but not enforced (https://developer.apple.com/forums/thread/812501); 2/2 attempts passed"))
    }

    @Test func theGateDecidesWhetherTheIssueStillReproduces() {
        let outcomes: [AttemptOutcome] = [.passed, .passed, .failed]
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 2), knownIssue: issue).status == .failed)
        #expect(CaseVerdict(outcomes: outcomes, gate: CaseGate(minPasses: 3), knownIssue: issue).status == .knownIssue)
        #expect(CaseVerdict(outcomes: outcomes, knownIssue: KnownIssue(reason: "flaky upstream")).reason
                == "known issue: flaky upstream; 2/3 attempts passed; every attempt must pass")
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
