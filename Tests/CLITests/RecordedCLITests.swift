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
    let run = try runFMEval(["run", "suites/recorded-device-transcripts.yaml", "-o", out.path, "--junit", junit, "--html", html,
                             "-v"],
                            environment: ["FMEVAL_MODEL_DIR": out.appendingPathComponent("no-models").path])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/bread-recipe  1/1"))
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/review-sentiment  1/1"))
    #expect(run.stdout.contains("KNOWN recorded-device-transcripts/recipe-off-schema  0/1"))
    #expect(run.stdout.contains("2 violation(s) (anyOf: 1, enum: 1)"))
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/receipt-photo  1/1"), "a prompt with an image attachment scores")
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/fm-session-planets  1/1"), "an fm session file scores")
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/fm-session-ocr-tool  1/1"), "its tool call and image load")
    #expect(run.stdout.contains("PASS  recorded-device-transcripts/fm27-image-flat-options  1/1"))
    #expect(run.stdout.contains("KNOWN recorded-device-transcripts/fm27-ticket-off-schema  0/1"))
    #expect(run.stdout.contains("1 violation(s) (enum: 1)"), "the FM 27 answer's violation of its recorded schema is counted")
    #expect(run.stdout.contains("9 cases, 7 passed, 0 failed, 2 known issues"), "\(run.stdout)")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("no-models").path), "no model is fetched")
    let results = try Results(path: out.appendingPathComponent("results.json").path)
    let fingerprint = try #require((results.document["run"] as? [String: Any])?["fingerprint"] as? [String: Any])
    #expect((fingerprint["engine"] as? [String: Any])?["name"] as? String == "recorded")
    let sources = try #require(fingerprint["recordedTranscripts"] as? [[String: Any]])
    #expect(sources.count == 9)
    let session = sources.first { ($0["path"] as? String)?.hasSuffix("fm-session-planets.json") == true }
    #expect((session?["sessionFile"] as? [String: Any])?["modelName"] as? String == "system", "the fm wrapper goes into the source")
    if let (status, output) = try reportXmllint(junit) { #expect(status == 0, "\(output)") }
    let junitText = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(junitText.contains(#"name="fmeval.transcript.sha256""#))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("Scored from 9 recorded transcripts"))
    #expect(page.contains("fm session file {&quot;modelName&quot;:&quot;system&quot;}"))
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
    let run = try runFMEval(["run", "s.yaml", "-o", "out", "--keep-going", "-v"], directory: folder)
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
    #expect(run.stdout.hasPrefix("note: --engine, --model do not apply to the 9 cases scored from recorded transcripts"))
}

@Test func transcriptConvertRewritesADialectAndKeepsItsOwn() throws {
    let same = try runFMEval(["transcript", "convert", "fixtures/recorded/fm-session-ocr-tool.json"])
    #expect(same.status == 0, "\(same.stderr)")
    let original = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "fixtures/recorded/fm-session-ocr-tool.json")))
    let printed = try JSONSerialization.jsonObject(with: Data(same.stdout.utf8))
    #expect((printed as? NSDictionary) == (original as? NSDictionary), "its own dialect prints the same JSON value")
    let fm26 = try runFMEval(["transcript", "convert", "--dialect", "26", "fixtures/recorded/fm27-image-flat-options.json"])
    #expect(fm26.status == 0, "\(fm26.stderr)")
    #expect(fm26.stdout.contains("\"version\": 1,") && fm26.stdout.contains("\"sampling\""), "\(fm26.stdout)")
    let bad = try runFMEval(["transcript", "convert", "--dialect", "25", "fixtures/recorded/math-tutor.json"])
    #expect(bad.status == 2 && bad.stderr.contains("use 26 or 27"), "\(bad.stderr)")
    let folder = try temporaryFolder()
    let future = folder.appendingPathComponent("future.json")
    try Data(#"{"modelName": "system", "transcript": {"type": "FoundationModels.Transcript", "version": "2.0", "transcript": {"entries": []}}}"#.utf8)
        .write(to: future)
    let unknown = try runFMEval(["transcript", "convert", future.path])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("future.json:1:") && unknown.stderr.contains("at /transcript/version"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains(#"1 (Foundation Models 26) and "1.1" (Foundation Models 27)"#), "\(unknown.stderr)")
}

/// The `version` of a transcript as a results file holds it (inside an `fm` session file's wrapper or not).
private func transcriptVersion(_ attempt: [String: Any]) -> Any? {
    let transcript = attempt["transcript"] as? [String: Any]
    return transcript?["version"] ?? (transcript?["transcript"] as? [String: Any])?["version"]
}

/// `--keep-going` with Foundation Models 27 files: the `fm` session file scores, an FM 27 file missing a
/// segment's text and a file of an unknown future version are listed as located errors.
@Test func keepGoingScoresTheValidFoundationModels27FilesAndListsTheInvalidOnes() throws {
    let folder = try temporaryFolder()
    let files = folder.appendingPathComponent("t")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: "fixtures/recorded/fm-session-planets.json"),
                                     to: files.appendingPathComponent("planets.json"))
    let entry = #"{"role": "user", "id": "u", "contents": [{"type": "text", "id": "1"}], "options": {}, "contextOptions": {}}"#
    try Data(#"{"type": "FoundationModels.Transcript", "version": "1.1", "transcript": {"entries": [\#(entry)]}}"#.utf8)
        .write(to: files.appendingPathComponent("broken.json"))
    let future = #"{"type": "FoundationModels.Transcript", "version": "2.0", "transcript": {"entries": []}}"#
    try Data(#"{"modelName": "system", "transcript": \#(future)}"#.utf8).write(to: files.appendingPathComponent("future.json"))
    try Data("suite: r\ntranscripts: t/*.json\ncases:\n  - id: planets\n    expect: { contains: Mars }\n".utf8)
        .write(to: folder.appendingPathComponent("s.yaml"))
    let stopped = try runFMEval(["run", "s.yaml", "-o", "out"], directory: folder)
    #expect(stopped.status == 2 && stopped.stderr.contains("add --keep-going"), "\(stopped.stderr)")
    let run = try runFMEval(["run", "s.yaml", "-o", "out", "--keep-going", "-v"], directory: folder)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("PASS  r/planets  1/1"), "\(run.stdout)")
    #expect(run.stdout.contains("ERROR r/broken") && run.stdout.contains("ERROR r/future"), "\(run.stdout)")
    #expect(run.stderr.contains("t/broken.json:1:") && run.stderr.contains("missing \"text\""), "\(run.stderr)")
    #expect(run.stderr.contains("t/future.json:1:") && run.stderr.contains("at /transcript/version"), "\(run.stderr)")
    let results = try Results(path: folder.appendingPathComponent("out/results.json").path)
    #expect(results.statuses == ["planets": "passed", "broken": "error", "future": "error"])
    #expect(transcriptVersion(try results.attempts("planets")[0]) as? String == "1.1",
            "a recorded file keeps its dialect")
}

/// `--transcript-dialect 26` writes every transcript of the results in the Foundation Models 26 dialect
/// (`"version": 1`), a recorded FM 27 file's and a new session's alike (the journal holds the same case
/// results, converted before either is written); the default writes a new
/// session's in 27's (`"version": "1.1"`); an unknown dialect is exit 2 naming the choices.
@Test func transcriptDialectChoosesTheDialectOfEveryTranscriptInTheResults() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("t"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: "fixtures/recorded/fm27-image-flat-options.json"),
                                     to: folder.appendingPathComponent("t/image.json"))
    try Data("suite: recorded\ntranscripts: t/*.json\n".utf8).write(to: folder.appendingPathComponent("recorded.yaml"))
    let live = ["suite: live", "engine: scripted", "cases:", "  - id: hello", "    prompt: Hi",
                "    script: [ { text: Hello } ]", "    expect: { contains: Hello }"]
    try Data((live.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("live.yaml"))
    let plain = try runFMEval(["run", "live.yaml", "-o", "plain"], directory: folder)
    #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
    let plainResults = try Results(path: folder.appendingPathComponent("plain/results.json").path)
    #expect(transcriptVersion(try plainResults.attempts("hello")[0]) as? String == "1.1")
    let old = try runFMEval(["run", "live.yaml", "recorded.yaml", "-o", "old", "--transcript-dialect", "26"],
                            directory: folder)
    #expect(old.status == 0, "\(old.stdout)\(old.stderr)")
    let results = try Results(path: folder.appendingPathComponent("old/results.json").path)
    for id in ["hello", "image"] {
        let attempt = try results.attempts(id)[0]
        #expect(transcriptVersion(attempt) as? Int == 1, "\(id): \(attempt["transcript"] ?? "none")")
    }
    let text = try String(contentsOf: folder.appendingPathComponent("old/results.json"), encoding: .utf8)
    #expect(!text.contains(#""version" : "1.1""#) && !text.contains(#""version":"1.1""#))
    let bad = try runFMEval(["run", "live.yaml", "-o", "bad", "--transcript-dialect", "25"], directory: folder)
    #expect(bad.status == 2 && bad.stderr.contains("--transcript-dialect must be 26 or 27"), "\(bad.stderr)")
}
