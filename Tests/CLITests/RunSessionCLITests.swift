import Foundation
import Testing

@Test func sessionSemanticsAndFaultsEndToEnd() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite([fixture("session.yaml")], in: folder)
    let document = try #require(results)
    #expect(run.status == 3, "unexpected errors exit 3")
    #expect(document.statuses == [
        "expected-error": "passed", "unexpected-error": "failed", "loop-guard": "failed", "loop-guard-expected": "passed",
        "mode-required-loops": "passed", "mode-required-answer-after-call": "passed", "mode-required-cut-call": "passed",
        "mode-required-violated": "passed", "mode-disallowed-violated": "passed",
        "context-overflow": "passed", "truncated-text": "passed", "truncated-structure": "passed",
        "zero-snapshots": "passed", "tool-crash": "error", "tool-hang": "error", "multi-turn": "passed",
        "script-runs-out": "error",
    ])
    #expect(try document.error("unexpected-error")["caseName"] as? String == "guardrailViolation")
    #expect(try document.error("unexpected-error")["class"] as? String == "modelBehavior", "a guardrail violation is the model's outcome")
    let guardError = try document.error("loop-guard")
    #expect(guardError["caseName"] as? String == "toolCallLimitExceeded")
    #expect((guardError["message"] as? String ?? "").contains("maxToolCalls (2)"))
    let guardMetrics = try document.attempts("loop-guard")[0]["metrics"] as? [[String: Any]] ?? []
    #expect(guardMetrics.first?["name"] as? String == "response", "a looping model fails the attempt; it is not an infrastructure error")
    let loop = try document.error("mode-required-loops")
    #expect(loop["class"] as? String == "modelBehavior")
    #expect(try document.attempts("mode-required-loops")[0]["engineCalls"] as? Int == 2)
    let cutCall = try document.attempts("mode-required-cut-call")[0]
    #expect(cutCall["truncated"] as? Bool == true)
    #expect((cutCall["text"] as? String).map { $0.hasPrefix("<tool_call>{") && $0.count < 40 } == true, "the partial text is kept")
    #expect(try document.error("mode-required-cut-call")["domain"] as? String == "GeneratedContent.ParsingError")
    let overflow = try document.attempts("context-overflow")[0]
    #expect(overflow["engineCalls"] as? Int == 0, "context overflow is detected before generating")
    #expect(try document.error("context-overflow")["expected"] as? Bool == true)
    #expect(try document.attempts("truncated-text")[0]["truncated"] as? Bool == true)
    let cut = try document.attempts("truncated-structure")[0]
    #expect(cut["truncated"] as? Bool == true)
    #expect(try document.error("truncated-structure")["domain"] as? String == "GeneratedContent.ParsingError")
    let zero = try document.attempts("zero-snapshots")[0]
    #expect(zero["snapshotCount"] as? Int == 0)
    #expect(zero["engineCalls"] as? Int == 2)
    #expect((try document.error("tool-crash")["message"] as? String ?? "").contains("status 7"))
    #expect((try document.error("tool-hang")["message"] as? String ?? "").contains("did not finish within 1.0 s"))
    #expect((try document.error("script-runs-out")["message"] as? String ?? "").contains("ran out of steps"))
    let multiTurn = try document.attempts("multi-turn")[0]
    let transcript = try #require(multiTurn["transcript"] as? [String: Any])
    let inner = try #require(transcript["transcript"] as? [String: Any])
    let entries = inner["entries"] as? [[String: Any]]
    #expect(entries?.map { $0["role"] as? String } == ["instructions", "user", "response", "user", "response"])
}

@Test func determinismCheckFlagsDivergingGreedyCases() throws {
    let folder = try temporaryFolder()
    let (plain, plainResults) = try runSuite([fixture("determinism.yaml")], in: folder)
    #expect(plain.status == 0)
    let plainDocument = try #require(plainResults)
    #expect(try plainDocument.case("diverges")["determinism"] == nil)
    let (checked, results) = try runSuite([fixture("determinism.yaml"), "--check-determinism"], in: folder)
    #expect(checked.status == 1)
    let document = try #require(results)
    let divergent = try document.case("diverges")
    let diverged = try #require(divergent["determinism"] as? [String: Any])
    #expect(diverged["diverged"] as? Bool == true)
    #expect((diverged["detail"] as? String ?? "").contains("Hello there"))
    #expect((try document.case("stable")["determinism"] as? [String: Any])?["diverged"] as? Bool == false)
    #expect(document.summary["nondeterministic"] as? Int == 1)
}

@Test func invalidSuitesAndFlagsExitTwoBeforeRunning() throws {
    let folder = try temporaryFolder()
    let (invalid, results) = try runSuite([fixture("invalid.yaml")], in: folder)
    #expect(invalid.status == 2)
    #expect(invalid.stderr.contains("invalid.yaml:4:5"))
    #expect(results == nil, "nothing runs when a suite is invalid")
    let (engine, _) = try runSuite([fixture("determinism.yaml"), "--engine", "gpt9"], in: folder)
    #expect(engine.status == 2)
    #expect(engine.stderr.contains("unknown engine 'gpt9'"))
    let (variant, _) = try runSuite([fixture("determinism.yaml"), "--variant", "nope"], in: folder)
    #expect(variant.status == 2)
    let (jobs, _) = try runSuite([fixture("determinism.yaml"), "--jobs", "0"], in: folder)
    #expect(jobs.status == 2)
    #expect(jobs.stderr.contains("--jobs"))
}

@Test func resumeCompletesAKilledRunWithoutRerunningFinishedCases() throws {
    let folder = try temporaryFolder()
    let json = folder.appendingPathComponent("results.json").path
    let journal = json + "l"
    let process = Process()
    process.executableURL = fmevalBinary()
    process.arguments = ["run", fixture("slow.yaml"), "--json", json]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        if let text = try? String(contentsOfFile: journal, encoding: .utf8), text.contains("\"caseID\":\"first\"") { break }
        usleep(20_000)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(!FileManager.default.fileExists(atPath: json), "the killed run never wrote its final results")
    let partial = try String(contentsOfFile: journal, encoding: .utf8)
    #expect(partial.contains("\"caseID\":\"first\""))
    #expect(!partial.contains("\"caseID\":\"third\""))

    let resumed = try runFMEval(["run", fixture("slow.yaml"), "--json", json, "--resume", journal, "-v"], environment: ["CI": "true"])
    #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
    #expect(!resumed.stdout.contains("slow/first"), "a finished case is not run again")
    #expect(resumed.stdout.contains("slow/third"))
    let document = try Results(path: json)
    #expect(Set(document.statuses.keys) == ["first", "second", "third"])
    #expect(document.statuses.values.allSatisfy { $0 == "passed" })
    #expect((document.document["run"] as? [String: Any])?["resumedFrom"] as? String == journal)
    #expect(!FileManager.default.fileExists(atPath: journal), "the journal is removed once the results are complete")
}
