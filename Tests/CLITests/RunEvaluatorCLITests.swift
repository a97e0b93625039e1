import Foundation
import Testing

@Test func everyEvaluatorPassesAndFailsOnItsMerits() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("evaluators.yaml")], in: folder)
    #expect(run.status == 3, "an evaluator that prints garbage gives no verdict: an error, exit 3: \(run.stderr)")
    let document = try #require(results)
    let statuses = document.statuses
    #expect(statuses.count == 24)
    for (id, status) in statuses {
        let expected = id == "command-garbage" ? "error" : (id.hasSuffix("-pass") ? "passed" : "failed")
        #expect(status == expected, "\(id) is \(status)")
    }
    let constraints = try document.attempts("constraints-fail")[0]
    let violations = try #require(constraints["violations"] as? [[String: Any]])
    #expect(violations.first?["keyword"] as? String == "enum")
    #expect(violations.first?["path"] as? String == "/team")
    let garbage = try document.attempts("command-garbage")[0]
    let metrics = try #require(garbage["metrics"] as? [[String: Any]])
    let rationale = metrics.first?["rationale"] as? String ?? ""
    #expect(rationale.contains("not JSON"))
}

@Test func trajectoryEdgeCases() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("trajectories.yaml")], in: folder)
    #expect(run.status == 1)
    let document = try #require(results)
    #expect(document.statuses == [
        "ordered-pass": "passed", "ordered-wrong-order": "failed", "extra-calls-fail": "failed",
        "extra-calls-allowed": "passed", "any-order-group": "passed", "disallowed-with-arguments-pass": "passed",
        "disallowed-with-arguments-fail": "failed", "disallowed-tool-fail": "failed",
        "unordered-defeats-greedy": "passed", "percentage-pass": "passed",
    ])
    let attempt = try document.attempts("extra-calls-fail")[0]
    let extra = try #require(attempt["metrics"] as? [[String: Any]])
    let rationale = extra.first?["rationale"] as? String ?? ""
    #expect(rationale.contains("allowsAdditionalToolCalls"))
}

@Test func repeatsGatesFlakyAndClassification() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("repeats.yaml")], in: folder)
    let document = try #require(results)
    #expect(run.status == 3, "an errored case makes the run exit 3")
    #expect(document.statuses == ["always-passes": "passed", "flaky-gate-holds": "flaky",
                                  "flaky-gate-fails": "failed", "errors-are-not-failures": "error"])
    let flaky = try document.case("flaky-gate-holds")
    #expect(flaky["passes"] as? Int == 3)
    #expect(flaky["passRate"] as? Double == 0.75)
    #expect(flaky["gateHolds"] as? Bool == true)
    let interval = try #require(flaky["interval"] as? [String: Double])
    #expect(abs(interval["lower"]! - 0.3006) < 0.001 && abs(interval["upper"]! - 0.9544) < 0.001)
    #expect(try document.case("flaky-gate-fails")["gateHolds"] as? Bool == false)
    let errored = try document.attempts("errors-are-not-failures")
    #expect(errored.map { $0["status"] as? String } == ["passed", "error"])
    #expect(try document.error("errors-are-not-failures", attempt: 1)["caseName"] as? String == "timeout")
    #expect(try document.error("errors-are-not-failures", attempt: 1)["class"] as? String == "retryableInfrastructure")
    #expect(errored.map { $0["retries"] as? Int } == [nil, 2], "a timeout is retried (default policy: 3 tries) before it is an error")
    let classification = try #require((document.document["classifications"] as? [[String: Any]])?.first)
    let summary = try #require(classification["summary"] as? [String: Any])
    #expect(summary["labels"] as? [String] == ["positive", "negative", "neutral"])
    #expect(summary["total"] as? Int == 12)
    #expect(document.summary["flaky"] as? Int == 1)
}

@Test func repeatFlagReplacesEachCasesRepeat() throws {
    let folder = try temporaryFolder()
    let (_, results) = try runSuite([fixture("determinism.yaml"), "--repeat", "3", "--jobs", "2"], in: folder)
    let document = try #require(results)
    for item in document.cases {
        #expect((item["attempts"] as? [Any])?.count == 3)
    }
}

@Test func filterSelectsByGlobTagAndSuiteAndListsTheRestAsSkipped() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("evaluators.yaml"), fixture("determinism.yaml"), "--filter", "*-pass,suite:determinism,!id:*diverges"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let document = try #require(results)
    #expect(document.cases.count == 12)
    #expect(document.statuses.values.allSatisfy { $0 == "passed" })
    #expect((document.document["skipped"] as? [Any])?.count == 14)
    #expect(document.summary["skipped"] as? Int == 14)
    let bad = try runSuite([fixture("evaluators.yaml"), "--filter", "label:x"], in: folder).0
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("unknown prefix"))
}

@Test func parallelJobsGiveTheSameResults() throws {
    let folder = try temporaryFolder()
    let (_, serial) = try runSuite([fixture("evaluators.yaml")], in: folder)
    let (_, parallel) = try runSuite([fixture("evaluators.yaml"), "--jobs", "4"], in: folder)
    let first = try #require(serial), second = try #require(parallel)
    #expect(first.statuses == second.statuses)
}
