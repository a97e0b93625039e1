import Foundation
import Testing

/// `fmeval schema check` on hostile input: the real binary, verdicts and exit codes (times are printed).
@Suite struct SchemaCheckHostileCLITests {
    private func file(_ text: String, _ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func check(_ schema: String, _ instance: String, _ label: String) throws -> CLIResult {
        let start = Date()
        let result = try runFMEval(["schema", "check", try file(schema, "schema.json"), try file(instance, "instance.json")])
        print("schema check, \(label): \(String(format: "%.2f", Date().timeIntervalSince(start))) s, exit \(result.status)")
        return result
    }

    @Test func oneLineArrayOfManyIntegersIsChecked() throws {
        let instance = "[" + (0..<100_000).map(String.init).joined(separator: ",") + ",\"x\"]"
        let result = try check(#"{"type": "array", "items": {"type": "integer"}}"#, instance, "one-line array of 100 000 integers")
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"path\": \"/100000\""), "\(result.stdout.prefix(400))")
    }

    @Test func nestedQuantifiersAndIntegersBeyondTwoToThe53() throws {
        let pattern = try check(#"{"type": "string", "pattern": "^(a+)+$"}"#, "\"" + String(repeating: "a", count: 50_000) + "b\"", "^(a+)+$ on 50 000 a's and a b")
        #expect(pattern.status == 1 && pattern.stdout.contains("as a whole"), "\(pattern.stdout)")
        let integer = try check(#"{"type": "integer", "maximum": 9007199254740992}"#, "9007199254740993", "9007199254740993 against maximum 2^53")
        #expect(integer.status == 1 && integer.stdout.contains("\"actual\": 9007199254740993"), "\(integer.stdout)")
    }

    @Test func anyOfOverARecursiveReferenceAtDepthSixty() throws {
        let schema = """
        {"$defs": {"Node": {"anyOf": [
          {"type": "object", "properties": {"tag": {"type": "string", "enum": ["a"]}, "next": {"$ref": "#/$defs/Node"}}, "required": ["tag", "next"]},
          {"type": "object", "properties": {"tag": {"type": "string", "enum": ["b"]}, "next": {"$ref": "#/$defs/Node"}}, "required": ["tag", "next"]},
          {"type": "null"}]}}, "$ref": "#/$defs/Node"}
        """
        let instance = String(repeating: #"{"tag": "b", "next": "#, count: 60) + "null" + String(repeating: "}", count: 60)
        #expect(try check(schema, instance, "anyOf chain of depth 60").status == 0)
    }

    @Test func unsupportedPatternsAreLocatedInputErrors() throws {
        let result = try check("{\"type\": \"object\",\n \"properties\": {\"p\": {\"type\": \"string\", \"pattern\": \"(a)\\\\1\"}}}", "{}", "back-reference pattern")
        #expect(result.status == 2)
        #expect(result.stderr.contains("schema.json:2:") && result.stderr.contains("/properties/p/pattern")
                && result.stderr.contains("pattern character 4"), "\(result.stderr)")
    }
}
