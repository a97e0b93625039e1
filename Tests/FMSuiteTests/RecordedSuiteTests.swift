import Foundation
import Testing
import FMCore
@testable import FMSuite

/// Apple's two reference transcripts as files of a fresh folder, with `suite` beside them as s.yaml.
private func recordedFolder(_ suite: String, extra: [String: String] = [:]) throws -> URL {
    let reference = suitePackageRoot.appendingPathComponent("reference/apple-fm-sdk")
    var files = extra
    files["recorded/bread.json"] = try String(contentsOf: reference.appendingPathComponent("test_transcript_full.json"), encoding: .utf8)
    files["recorded/math.json"] = try String(contentsOf: reference.appendingPathComponent("test_transcript.json"), encoding: .utf8)
    files["s.yaml"] = suite
    return try makeFolder(files)
}

@Test func eachTranscriptIsACaseNamedAfterItsFile() throws {
    let folder = try recordedFolder("""
    suite: r
    transcripts: recorded/*.json
    defaults:
      expect: [ { not: { contains: sorry } } ]
    cases:
      - id: bread
        tags: [tools]
        expect:
          - toolCalls: { ordered: [ { name: searchBreadDatabaseTool } ] }
          - constraints: { maxViolations: 0 }
    """)
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let cases = try #require(suite).expanded()
    #expect(cases.map(\.caseID) == ["bread", "math"])
    let bread = cases[0], math = cases[1]
    #expect(bread.engine == RecordedTranscript.engineName)
    #expect(bread.tags == ["tools"])
    #expect(bread.expectations.count == 3 && math.expectations.count == 1)
    #expect(bread.prompt == "What is a basic recipe for a brioche?")
    #expect(bread.generating?.root.title == "Recipe")
    #expect(bread.instructions == "You are a bread expert and can answer questions about bread.")
    #expect(math.turns == ["What is 5+3?", "What is 10-4?", "What is 2*6?"] && math.prompt == nil)
    let recorded = try #require(bread.recorded)
    #expect(recorded.problem == nil && recorded.transcript?.entries.count == 5)
    let bytes = try Data(contentsOf: folder.appendingPathComponent("recorded/bread.json"))
    #expect(recorded.sha256 == SHA256.hex(of: [UInt8](bytes)))
    let json = String(decoding: try JSONEncoder().encode(bread), as: UTF8.self)
    #expect(json.contains(recorded.sha256) && json.contains(#""engine":"recorded""#))
}

@Test func transcriptsTakeAFolderAListAndExplicitIDs() throws {
    let folder = try recordedFolder("""
    suite: r
    transcripts:
      - { path: recorded/bread.json, id: brioche }
      - recorded/math.json
    """)
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(try #require(suite).expanded().map(\.caseID) == ["brioche", "math"])
    let whole = try recordedFolder("suite: r\ntranscripts: recorded\n")
    #expect(SuiteLoader.load(file: whole.appendingPathComponent("s.yaml").path).suite?.cases.map(\.id) == ["bread", "math"])
}

@Test func liveKeysAndUnknownIDsAreLocatedErrors() throws {
    let folder = try recordedFolder("""
    suite: r
    transcripts: recorded/*.json
    engine: embedded
    cases:
      - id: braed
        expect: { contains: x }
      - id: math
        prompt: What is 1+1?
    """)
    let diagnostics = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path).diagnostics
    let messages = diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
    #expect(messages.contains { $0.hasPrefix("3:9 'engine' does not apply to a suite of recorded transcripts") }, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("5:9 no transcript has the id 'braed'; did you mean 'bread'?") }, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("8:5 unknown key 'prompt'") }, "\(messages)")
}

@Test func aGlobMatchingNothingIsAnError() throws {
    let folder = try recordedFolder("suite: r\ntranscripts: recorded/*.jsonl\n")
    let diagnostics = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path).diagnostics
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message.hasPrefix("transcripts 'recorded/*.jsonl' matches no file") == true, "\(diagnostics)")
    #expect(diagnostics.first?.location.line == 2)
}

@Test func anInvalidTranscriptKeepsItsLocatedProblem() throws {
    let broken = """
    {"version": 1, "type": "FoundationModels.Transcript",
     "transcript": {"entries": [
       {"id": "a", "role": "robot", "contents": []}
     ]}}
    """
    let folder = try recordedFolder("suite: r\ntranscripts: recorded/*.json\n", extra: ["recorded/broken.json": broken])
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.isEmpty, "the suite itself is valid: \(diagnostics)")
    let item = try #require(suite?.expanded().first { $0.caseID == "broken" })
    let problem = try #require(item.recorded?.problem)
    #expect(problem.location.file.hasSuffix("recorded/broken.json"))
    #expect(problem.location.line == 3 && problem.location.column == 24, "\(problem)")
    #expect(problem.message.hasPrefix("not a valid FoundationModels.Transcript: at /transcript/entries/0/role: unknown role \"robot\""), "\(problem)")
    #expect(item.recorded?.transcript == nil)
}

@Test func expectationsAreCheckedAgainstWhatTheTranscriptsRecorded() throws {
    let folder = try recordedFolder("""
    suite: r
    transcripts: recorded/*.json
    cases:
      - id: bread
        expect: { toolCalls: { ordered: [ { name: searchBreadDatabaseTol } ] } }
      - id: math
        expect: { constraints: { maxViolations: 0 } }
    """)
    let diagnostics = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path).diagnostics
    let messages = diagnostics.map(\.message)
    #expect(messages.contains { $0.hasPrefix("toolCalls names tool 'searchBreadDatabaseTol', which no transcript of the suite defines; did you mean 'searchBreadDatabaseTool'?") }, "\(messages)")
    #expect(messages.contains("case 'math' checks constraints against the requested schema, but its transcript's last prompt has no responseFormat; give the constraints a 'schema'"), "\(messages)")
}
