import Foundation
import Testing

/// A scripted case judged by a scripted judge (the judge's verdicts are its script): through the real CLI,
/// loader, runner, judge prompt and answer schema, one case passes its judge and one fails it.
private let scriptedJudges = """
suite: judged
engine: scripted
cases:
  - id: polite
    prompt: Greet me.
    script: [ { text: "Good morning, and welcome!" } ]
    expect:
      judge:
        engine: scripted
        criteria: The answer is polite.
        script: [ { structure: { judge: { rationale: "It greets warmly.", score: pass } } } ]
  - id: curt
    prompt: Greet me.
    script: [ { text: "What do you want?" } ]
    expect:
      judge:
        criteria: The answer is polite.
        script: [ { structure: { judge: { rationale: "It is curt.", score: fail } } } ]
"""

@Test func aScriptedJudgeGivesAPassingAndAFailingVerdictThroughTheRunner() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("judged.yaml").path
    try scriptedJudges.write(toFile: path, atomically: true, encoding: .utf8)
    let (run, results) = try runSuite([path, "--no-history"], in: folder)
    #expect(run.status == 1, "one case fails its judge:\n\(run.stdout)\(run.stderr)")
    let document = try #require(results)
    #expect(document.statuses == ["polite": "passed", "curt": "failed"])
    let metric = { (id: String) throws -> [String: Any] in
        let metrics = try #require(try document.attempts(id)[0]["metrics"] as? [[String: Any]])
        return try #require(metrics.first { $0["name"] as? String == "judge" }, "\(metrics)")
    }
    let polite = try metric("polite"), curt = try metric("curt")
    #expect(polite["value"] as? String == "passing")
    #expect(curt["value"] as? String == "failing")
    #expect((curt["rationale"] as? String)?.contains("It is curt.") == true, "\(curt)")
}

@Test func judgesThatCannotRunAreLoadErrors() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("bad-judges.yaml").path
    try """
    suite: bad-judges
    engine: scripted
    cases:
      - { id: unscripted, prompt: Hi, script: [ { text: hi } ], expect: { judge: { criteria: polite } } }
      - id: stray-script
        prompt: Hi
        script: [ { text: hi } ]
        expect: { judge: { engine: embedded, criteria: polite, script: [ { text: x } ] } }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    for command in ["validate", "run"] {
        let result = try runFMEval([command, path] + (command == "run" ? ["--no-history"] : []))
        #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
        let unscripted = "bad-judges.yaml:4:5: error: a judge on the scripted engine needs 'script:'"
        let stray = "the judge's 'script:' is read only by the scripted engine; this judge runs on 'embedded'"
        #expect(result.stderr.contains(unscripted), "\(result.stderr)")
        #expect(result.stderr.contains(stray), "\(result.stderr)")
    }
    let pairwise = folder.appendingPathComponent("pairwise.yaml").path
    try """
    suite: pairwise
    engine: scripted
    cases:
      - id: unanchored
        prompt: Hi
        script: [ { text: hi } ]
        expect: { judge: { engine: scripted, pairwise: true, script: [ { text: x } ] } }
    """.write(toFile: pairwise, atomically: true, encoding: .utf8)
    let validate = try runFMEval(["validate", pairwise])
    #expect(validate.status == 2, "\(validate.stderr)")
    #expect(validate.stderr.contains("error: judge: pairwise judging needs a baseline"), "\(validate.stderr)")
}

/// A case and its judge on the real model, recorded and then replayed from the cassette: the judge's
/// request is recorded with the case's, and the replayed run gives the same verdict without a model.
@Test func aJudgeOnTheRealModelIsRecordedAndReplayed() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("capital.yaml").path
    try """
    suite: capital
    options: { maximumResponseTokens: 16 }
    cases:
      - id: france
        prompt: What is the capital of France? Answer with one word.
        expect:
          judge: { criteria: The answer names the city of Paris. }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let cassette = folder.appendingPathComponent("capital.cassette.json").path
    let (recording, recorded) = try runSuite([path, "--record", cassette, "--no-history"], in: folder)
    #expect(recording.status == 0 || recording.status == 1,
            "a verdict, not an error:\n\(recording.stdout)\(recording.stderr)")
    let verdict = try judgeMetric(try #require(recorded))
    #expect(verdict["value"] as? String == "passing" || verdict["value"] as? String == "failing", "\(verdict)")
    #expect(verdict["evaluatorError"] == nil && (verdict["rationale"] as? String)?.isEmpty == false, "\(verdict)")
    let data = try Data(contentsOf: URL(fileURLWithPath: cassette))
    let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect((entries["entries"] as? [Any])?.count == 2, "the case's request and the judge's")

    let replayFolder = folder.appendingPathComponent("replay")
    try FileManager.default.createDirectory(at: replayFolder, withIntermediateDirectories: true)
    let (replay, replayed) = try runSuite([path, "--engine", "replay", "--cassette", cassette, "--no-history"],
                                          in: replayFolder)
    #expect(replay.status == recording.status, "\(replay.stdout)\(replay.stderr)")
    let again = try judgeMetric(try #require(replayed))
    #expect(again["value"] as? String == verdict["value"] as? String)
    #expect(again["rationale"] as? String == verdict["rationale"] as? String)
}

/// The `judge` metric of the first attempt of case `france`.
private func judgeMetric(_ results: Results) throws -> [String: Any] {
    let metrics = try #require(try results.attempts("france")[0]["metrics"] as? [[String: Any]])
    return try #require(metrics.first { $0["name"] as? String == "judge" })
}
