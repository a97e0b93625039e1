import Foundation
import Testing

/// A folder holding Apple's simple transcript as t/good.json, a transcript missing a segment's text as
/// t/bad.json, and s.yaml scoring both.
private func folderWithABadTranscript() throws -> URL {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("t"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: referenceDirectory.appendingPathComponent("apple-fm-sdk/test_transcript.json"),
                                     to: folder.appendingPathComponent("t/good.json"))
    try Data("""
    {"version": 1, "type": "FoundationModels.Transcript",
     "transcript": {"entries": [{"id": "x", "role": "user", "contents": [{"type": "text", "id": "1"}]}]}}

    """.utf8).write(to: folder.appendingPathComponent("t/bad.json"))
    try Data("suite: r\ntranscripts: t/*.json\ncases:\n  - id: good\n    expect: { contains: \"12\" }\n".utf8)
        .write(to: folder.appendingPathComponent("s.yaml"))
    return folder
}

@Test func theRecordedExampleSuiteScoresWithoutAModel() throws {
    let out = try temporaryFolder()
    let junit = out.appendingPathComponent("junit.xml").path, html = out.appendingPathComponent("report.html").path
    let run = try runFMEval(["run", "suites/recorded-device-transcripts.yaml", "-o", out.path, "--junit", junit, "--html", html],
                            environment: ["FMEVAL_MODEL_DIR": out.appendingPathComponent("no-models").path])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/bread-recipe  1/1"))
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/review-sentiment  1/1"))
    #expect(run.stdout.contains("KNOWN recorded-device-transcripts/recipe-off-schema  0/1"))
    #expect(run.stdout.contains("2 violation(s) (anyOf: 1, enum: 1)"))
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/receipt-photo  1/1"), "a prompt with an image attachment scores")
    #expect(run.stdout.contains("5 cases, 4 passed, 0 failed, 1 known issue"))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("no-models").path), "no model is fetched")
    let results = try Results(path: out.appendingPathComponent("results.json").path)
    let fingerprint = try #require((results.document["run"] as? [String: Any])?["fingerprint"] as? [String: Any])
    #expect((fingerprint["engine"] as? [String: Any])?["name"] as? String == "recorded")
    #expect((fingerprint["recordedTranscripts"] as? [[String: Any]])?.count == 5)
    if let (status, output) = try reportXmllint(junit) { #expect(status == 0, "\(output)") }
    let junitText = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(junitText.contains(#"name="fmeval.transcript.sha256""#))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("Scored from 5 recorded transcripts"))
    let receipt = try Data(contentsOf: URL(fileURLWithPath: "fixtures/recorded/receipt-photo.json"))
    let transcript = try #require(try JSONSerialization.jsonObject(with: receipt) as? [String: Any])
    let entries = try #require((transcript["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
    let image = try #require(((entries[1]["contents"] as? [[String: Any]])?[1]["content"] as? [String: Any])?["image"] as? [String: Any])
    let png = try #require((image["data"] as? String).flatMap { Data(base64Encoded: $0) })
    #expect(page.contains(#"<img class="thumb" src="data:image/png;base64,\#(png.base64EncodedString())" alt="receipt">"#),
            "the recorded image renders as a thumbnail")
    #expect(page.contains("<b>receipt</b> image/png · \(png.count) bytes"))
    #expect(page.contains("tool <code>searchBreadDatabaseTool</code> — Searches a local database for bread recipes."))
    #expect(page.contains("options <code>{&quot;temperature&quot;:0.7,&quot;maximumResponseTokens&quot;:512}</code>"))
    #expect(page.contains("recorded metadata"))
    #expect(page.contains("872 in / 209 out tokens"))
}

@Test func anInvalidTranscriptIsALocatedErrorAndNothingRuns() throws {
    let folder = try folderWithABadTranscript()
    let run = try runFMEval(["run", "s.yaml", "-o", "out"], directory: folder)
    #expect(run.status == 2)
    #expect(run.stderr.contains("t/bad.json:2:70: error: not a valid FoundationModels.Transcript: at /transcript/entries/0/contents/0: missing \"text\""), "\(run.stderr)")
    #expect(run.stderr.contains("add --keep-going"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/results.json").path))
    let validate = try runFMEval(["validate", "s.yaml"], directory: folder)
    #expect(validate.status == 2 && validate.stderr.contains("t/bad.json:2:70:"), "\(validate.stderr)")
}

@Test func keepGoingScoresTheValidTranscriptsAndListsTheInvalidOnes() throws {
    let folder = try folderWithABadTranscript()
    let run = try runFMEval(["run", "s.yaml", "-o", "out", "--keep-going"], directory: folder)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("PASS  r/good  1/1"))
    #expect(run.stdout.contains("ERROR r/bad"))
    #expect(run.stderr.contains("(--keep-going: listed as an error)"))
    let results = try Results(path: folder.appendingPathComponent("out/results.json").path)
    #expect(results.statuses == ["good": "passed", "bad": "error"])
}

@Test func engineFlagsOnARecordedSuiteAreNotedNotUsed() throws {
    let out = try temporaryFolder()
    let run = try runFMEval(["run", "suites/recorded-device-transcripts.yaml", "-o", out.path, "--engine", "openai", "--model", "smollm2"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasPrefix("note: --engine, --model do not apply to the 5 cases scored from recorded transcripts"))
}
