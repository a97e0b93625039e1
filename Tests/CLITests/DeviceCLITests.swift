import Foundation
import Testing

@Test func deviceOutcomesWindowAndTranscriptEditsEndToEnd() throws {
    let folder = try temporaryFolder()
    let html = folder.appendingPathComponent("report.html").path
    let (run, results) = try runSuite([fixture("device.yaml"), "--html", html], in: folder)
    let document = try #require(results)
    #expect(run.status == 1, "the model's outcomes fail the run (exit 1), they are not infrastructure (exit 3): \(run.stdout)")
    #expect(document.statuses == ["answer-runs-off-the-window": "passed", "unexpected-window-overflow": "failed",
                                  "refused": "failed", "compacted": "passed"])
    let overflow = try document.error("unexpected-window-overflow")
    #expect(overflow["caseName"] as? String == "contextSizeExceeded" && overflow["class"] as? String == "modelBehavior")
    #expect((overflow["message"] as? String ?? "").contains("the response shares the context window"))
    #expect(try document.attempts("unexpected-window-overflow")[0]["engineCalls"] as? Int == 1, "the prompt fitted; the answer did not")
    #expect(try document.error("refused")["class"] as? String == "modelBehavior")
    let compacted = try document.attempts("compacted")[0]
    let entries = ((compacted["transcript"] as? [String: Any])?["transcript"] as? [String: Any])?["entries"] as? [[String: Any]]
    #expect(entries?.map { $0["role"] as? String } == ["instructions", "user", "response"], "the edit cleared the first exchange")
    let counts = try #require(compacted["tokenCounts"] as? [String: Any])
    #expect(counts["instructions"] as? Int == 3 && counts["prompt"] as? Int == 10 && counts["estimated"] as? Bool == true,
            "Be brief. is 3 estimated tokens; the prompts 6 + 4")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("Input tokens by part (estimated): instructions 3 · tools 0 · schema 0 · prompt 10"))
}

@Test func aBadTranscriptEditIsLocatedAndExitsTwo() throws {
    let folder = try temporaryFolder()
    let suite = "suite: bad\nengine: scripted\ncases:\n  - id: a\n    turns:\n      - one\n      - prompt: two\n        transcript: { drop: [toolCall] }\n    script: { turns: [ [ { text: a } ], [ { text: b } ] ] }\n"
    let path = folder.appendingPathComponent("bad.yaml")
    try Data(suite.utf8).write(to: path)
    let result = try runFMEval(["validate", path.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.yaml:8:30: error: unknown transcript entry kind 'toolCall' in turn 2 transcript.drop; did you mean 'toolCalls'?"),
            "\(result.stderr)")
}
