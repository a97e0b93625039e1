import Foundation
import Testing

/// The reference file `name` under `apple-fm-sdk/`.
private func appleReference(_ name: String) -> String {
    referenceDirectory.appendingPathComponent("apple-fm-sdk/\(name)").path
}

/// Writes `text` to a fresh temporary file and returns its path.
private func temporaryFile(_ text: String, name: String = "input.json") throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-core-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// Parses `text` as a JSON object.
private func jsonObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
}

@Test func schemaCheckValidInstanceExitsZero() throws {
    let instance = try temporaryFile(#"{"name": "Tom", "age": {"years": 3, "months": 1}, "profile": "Calm."}"#)
    let result = try runFMEval(["schema", "check", appleReference("cat.json"), instance])
    #expect(result.status == 0, "\(result.stderr)")
    let output = try jsonObject(result.stdout)
    #expect(output["valid"] as? Bool == true)
    #expect((output["violations"] as? [Any])?.isEmpty == true)
}

@Test func schemaCheckReportsEveryViolationAndExitsOne() throws {
    let instance = try temporaryFile(#"{"name": "Spike", "age": {"years": "2"}, "favoriteFood": "cake", "home": "a hedge", "hobbies": ["x"], "extra": true}"#)
    let result = try runFMEval(["schema", "check", appleReference("hedgehog.json"), instance])
    #expect(result.status == 1)
    let output = try jsonObject(result.stdout)
    #expect(output["valid"] as? Bool == false)
    let violations = try #require(output["violations"] as? [[String: Any]])
    #expect(violations.map { "\($0["path"]!) \($0["keyword"]!)" } == [
        "/age/years type", "/age/months required", "/favoriteFood enum", "/hobbies minItems", "/extra additionalProperties",
    ])
    for violation in violations {
        #expect(Set(violation.keys) == ["path", "keyword", "expected", "actual", "message"])
    }
}

@Test func schemaCheckMalformedJSONNamesFileLineAndColumn() throws {
    let instance = try temporaryFile("{\n  \"name\": \"Tom\",\n  \"age\": }\n", name: "broken.json")
    let result = try runFMEval(["schema", "check", appleReference("cat.json"), instance])
    #expect(result.status == 2)
    #expect(result.stderr.contains("broken.json:3:10:"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.split(separator: "\n").count == 1)
}

@Test func schemaCheckUndefinedReferenceIsInvalidInput() throws {
    let schema = try temporaryFile(##"{"type": "object", "properties": {"pet": {"$ref": "#/$defs/Pet"}}, "required": ["pet"]}"##, name: "schema.json")
    let instance = try temporaryFile("{}")
    let result = try runFMEval(["schema", "check", schema, instance])
    #expect(result.status == 2)
    #expect(result.stderr.contains("schema.json:1:"), "\(result.stderr)")
    #expect(result.stderr.contains("'Pet'"))
}

@Test func schemaCheckNeedsTwoFiles() throws {
    let result = try runFMEval(["schema", "check", appleReference("cat.json")])
    #expect(result.status == 2)
    #expect(result.stderr.contains("expected SCHEMA.json and INSTANCE.json"))
}

@Test func transcriptInspectJSONPrintsTheStructuredTranscript() throws {
    let result = try runFMEval(["transcript", "inspect", "--json", appleReference("test_transcript_full.json")])
    #expect(result.status == 0, "\(result.stderr)")
    let output = try jsonObject(result.stdout)
    #expect(output["instructionText"] as? String == "You are a bread expert and can answer questions about bread.")
    #expect(output["prompts"] as? [String] == ["What is a basic recipe for a brioche?"])
    let calls = try #require(output["toolCalls"] as? [[String: Any]])
    #expect(calls.first?["name"] as? String == "searchBreadDatabaseTool")
    let arguments = try #require(calls.first?["arguments"] as? [String: Any])
    #expect(arguments["searchTerm"] as? String == "brioche")
    let outputs = try #require(output["toolOutputs"] as? [[String: Any]])
    #expect(outputs.first?["text"] as? String == "[]")
    #expect((output["responses"] as? [String])?.count == 1)
}

@Test func transcriptInspectSimpleTranscript() throws {
    let result = try runFMEval(["transcript", "inspect", "--json", appleReference("test_transcript.json")])
    #expect(result.status == 0)
    let output = try jsonObject(result.stdout)
    #expect(output["responses"] as? [String] == ["5 + 3 equals 8.", "10 - 4 equals 6.", "2 multiplied by 6 equals 12."])
}

@Test func transcriptInspectShowsEntriesToolsOptionsFormatCallsAndStructuredContent() throws {
    let result = try runFMEval(["transcript", "inspect", appleReference("test_transcript_full.json")])
    #expect(result.status == 0, "\(result.stderr)")
    let text = result.stdout
    #expect(text.hasPrefix("5 entries: instructions, prompt, tool calls, tool output, response"), "\(text)")
    #expect(text.contains("[1] instructions  id 0384244A-14F4-448D-88A7-CF923C9C047D"))
    #expect(text.contains("      searchBreadDatabaseTool — Searches a local database for bread recipes."))
    #expect(text.contains("limit: integer 1…6 — The number of recipes to get"))
    #expect(text.contains("What is a basic recipe for a brioche?"))
    #expect(text.contains("    options: default"))
    #expect(text.contains("    response format: "))
    #expect(text.contains(#"searchBreadDatabaseTool({"searchTerm":"brioche","#), "\(text)")
    #expect(text.contains("    from searchBreadDatabaseTool"))
    #expect(text.contains("structured content"))
}

@Test func transcriptInspectMissingFieldNamesPathAndLine() throws {
    let original = try String(contentsOfFile: appleReference("test_transcript.json"), encoding: .utf8)
    let broken = original.replacingOccurrences(of: #""role": "instructions""#, with: #""rolle": "instructions""#)
    let result = try runFMEval(["transcript", "inspect", try temporaryFile(broken, name: "t.json")])
    #expect(result.status == 2)
    #expect(result.stderr.contains("t.json:4:7: at /transcript/entries/0:"), "\(result.stderr)")
    #expect(result.stderr.contains("missing \"role\""))
}

@Test func transcriptInspectUnreadableFileIsInvalidInput() throws {
    let result = try runFMEval(["transcript", "inspect", "/no/such/transcript.json"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no such file"))
}

@Test func coreCommandsHaveHelp() throws {
    let overview = try runFMEval(["--help"])
    #expect(overview.stdout.contains("schema check"))
    #expect(overview.stdout.contains("transcript inspect"))
    let help = try runFMEval(["help", "transcript", "inspect"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: fmeval transcript inspect [--json] FILE.json"))
}

@Test func commandGroupsWithoutASubcommandPrintTheirHelp() throws {
    for (group, member) in [("schema", "schema check"), ("transcript", "transcript inspect"), ("model", "model fetch")] {
        for words in [[group], ["help", group], [group, "--help"]] {
            let result = try runFMEval(words)
            #expect(result.status == 0, "\(words): \(result.stderr)")
            #expect(result.stdout.contains("USAGE: fmeval \(group) SUBCOMMAND"), "\(words): \(result.stdout)")
            #expect(result.stdout.contains(member), "\(words)")
        }
    }
}

@Test func anUnknownSubcommandSuggestsTheClosest() throws {
    let result = try runFMEval(["schema", "chek", "a.json"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("unknown subcommand 'chek' of 'schema' (did you mean 'check'?)"), "\(result.stderr)")
}

@Test func schemaCheckReadsTheInstanceFromStandardInput() throws {
    let result = try runFMEval(["schema", "check", appleReference("age.json"), "-"], stdin: #"{"years": 1.5, "months": 2}"#)
    #expect(result.status == 1)
    let violations = try #require(try jsonObject(result.stdout)["violations"] as? [[String: Any]])
    #expect(violations.map { $0["path"] as? String } == ["/years"])
    #expect(violations.first?["keyword"] as? String == "type")
}
