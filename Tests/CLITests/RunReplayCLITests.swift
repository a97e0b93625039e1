import Foundation
import Testing

@Test func recordThenReplayGivesTheSameResultsAndAMissFailsClosed() throws {
    let folder = try temporaryFolder()
    let cassette = folder.appendingPathComponent("cities.cassette.json").path
    let (recorded, recordedResults) = try runSuite([fixture("replay/cities.yaml"), "--record", cassette], in: folder)
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    #expect(FileManager.default.fileExists(atPath: cassette))

    let (replayed, replayedResults) = try runSuite([fixture("replay/cities.yaml"), "--engine", "replay", "--cassette", cassette], in: folder)
    #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    let original = try #require(recordedResults), again = try #require(replayedResults)
    #expect(original.statuses == again.statuses)
    #expect(try original.attempts("paris")[0]["text"] as? String == (try again.attempts("paris")[0]["text"] as? String))
    let engine = try #require(again.cases.first?["engine"] as? [String: Any])
    #expect(engine["name"] as? String == "replay")

    // The same suite with one prompt changed: the request was never recorded.
    let changed = folder.appendingPathComponent("cities.yaml")
    let text = try String(contentsOfFile: fixture("replay/cities.yaml"), encoding: .utf8)
    try text.replacingOccurrences(of: "weather in Beijing?", with: "weather in Tokyo?").write(to: changed, atomically: true, encoding: .utf8)
    let (missed, missedResults) = try runSuite([changed.path, "--cassette", cassette], in: folder)
    #expect(missed.status == 3, "a cassette miss is an error: \(missed.stdout)")
    let document = try #require(missedResults)
    #expect(document.statuses == ["paris": "passed", "beijing": "error"])
    let error = try document.error("beijing")
    #expect(error["caseName"] as? String == "cassetteMiss")
    let message = error["message"] as? String ?? ""
    #expect(message.contains("Closest recording"))
    #expect(message.contains("/transcript/transcript/entries/1/contents/0/text"))
    #expect(message.contains("requested \"What's the weather in Tokyo?\""))
}

@Test func replayNeedsACassette() throws {
    let folder = try temporaryFolder()
    let (run, _) = try runSuite([fixture("replay/cities.yaml"), "--engine", "replay"], in: folder)
    #expect(run.status == 2)
    #expect(run.stderr.contains("--cassette"))
}
