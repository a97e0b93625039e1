import Foundation
import Testing

/// CLI tests of `fmeval respond --schema`: the real binary with the real default model (fetched on
/// first use, never skipped), its output checked by `fmeval schema check`.
@Suite(.serialized) struct RespondSchemaCLITests {
    /// A fresh directory holding `schema` as `schema.json`; returns the file's path.
    func write(schema: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-respond-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("schema.json")
        try schema.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs `respond --schema` with the default response budget (none but the context window, as in
    /// Foundation Models) and asserts that `schema check` finds its stdout valid with 0 violations.
    func expectValidStructure(schemaPath: String, prompt: String) throws {
        let result = try runFMEval(["respond", "--schema", schemaPath, prompt])
        #expect(result.status == 0, "\(schemaPath): \(result.stderr)")
        #expect(result.stdout.hasSuffix("}\n") || result.stdout.hasSuffix("]\n"), "\(result.stdout)")
        let check = try runFMEval(["schema", "check", schemaPath, "-"], stdin: result.stdout)
        #expect(check.status == 0, "\(schemaPath): \(result.stdout) -> \(check.stdout)\(check.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        #expect(report["valid"] as? Bool == true)
        #expect((report["violations"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        ("age", "How old is a cat that was born 3 years and 2 months ago?"),
        ("cat", "Describe a cat named Tom who is 3 years old. The profile is one short sentence."),
        ("hedgehog", "Describe a hedgehog."),
        ("person", "Describe Ann, a 40-year-old woman with no children."),
        ("newsletter", "Write the title and topic of a shelter newsletter about adopting cats."),
        ("petClub", "Describe a small pet club with one member, Ann (age 40), no cats, no hedgehogs and no other pets."),
        ("shelter", "List the cats at the shelter."),
    ])
    func eachReferenceSchemaGivesAValidDocument(name: String, prompt: String) throws {
        let path = referenceDirectory.appendingPathComponent("apple-fm-sdk/\(name).json").path
        try expectValidStructure(schemaPath: path, prompt: prompt)
    }

    @Test(arguments: [
        ("""
        {"type":"object","additionalProperties":false,"x-order":["mood","scores","tags"],"required":["mood","scores","tags"],
         "properties":{"mood":{"type":"string","enum":["calm","grumpy"]},
          "scores":{"type":"array","items":{"type":"integer","minimum":7,"maximum":9},"minItems":2,"maxItems":2},
          "tags":{"type":"array","items":{"type":"string","enum":["red","blue"]},"minItems":1,"maxItems":1}}}
        """, "The cat is furious and scores 2 out of 100. Tag it ANGRY-CAT."),
        ("""
        {"type":"object","additionalProperties":false,"x-order":["name","cats"],"required":["name","cats"],
         "properties":{"name":{"type":"string","enum":["Paws","Whiskers"]},
          "cats":{"type":"array","minItems":3,"maxItems":3,"items":{"type":"object","additionalProperties":false,
           "x-order":["name","age"],"required":["name","age"],
           "properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0,"maximum":2}}}}}}
        """, "Describe a shelter called Happy Tails with one old cat, Tom, aged 15."),
        ("""
        {"type":"array","items":{"type":"string","enum":["yes","no"]},"minItems":4,"maxItems":4}
        """, "Answer with one word: is the sky green?"),
    ])
    func tightCountsAndEnumsHold(schema: String, prompt: String) throws {
        try expectValidStructure(schemaPath: try write(schema: schema), prompt: prompt)
    }

    @Test func jsonPutsTheDocumentInTheContentField() throws {
        let path = referenceDirectory.appendingPathComponent("apple-fm-sdk/age.json").path
        let result = try runFMEval(["respond", "--json", "--max-tokens", "600", "--schema", path, "How old is a cat born 3 years ago?"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let content = try #require(object["content"] as? [String: Any])
        #expect(!content.isEmpty)
        #expect(object["finishReason"] as? String == "stop")
        let usage = try #require(object["usage"] as? [String: Int])
        #expect((usage["inputTokens"] ?? 0) > 0 && (usage["outputTokens"] ?? 0) > 0)
        let text = try #require(object["text"] as? String)
        let check = try runFMEval(["schema", "check", path, "-"], stdin: text)
        #expect(check.status == 0, "\(text): \(check.stdout)")
    }

    @Test func aCutStructureExitsOneAndSaysSo() throws {
        let path = referenceDirectory.appendingPathComponent("apple-fm-sdk/cat.json").path
        let result = try runFMEval(["respond", "--max-tokens", "4", "--schema", path, "Describe a cat."])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cut after 4 tokens") && result.stderr.contains("--max-tokens"))
        let json = try runFMEval(["respond", "--json", "--max-tokens", "4", "--schema", path, "Describe a cat."])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["content"] is NSNull)
        #expect(object["finishReason"] as? String == "length")
    }

    @Test func badSchemasExitTwoWithWhereAndWhat() throws {
        let malformed = try write(schema: "{\"type\": \"object\",\n  \"properties\": [}")
        let bad = try runFMEval(["respond", "--schema", malformed, "hi"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("schema.json:2:"), "\(bad.stderr)")
        let unsupported = try write(schema: #"{"type":"string","pattern":"(?=a)b"}"#)
        let guide = try runFMEval(["respond", "--schema", unsupported, "hi"])
        #expect(guide.status == 2)
        #expect(guide.stderr.contains("schema.json:1:") && guide.stderr.contains("only (?:…) groups are supported"), "\(guide.stderr)")
        let missing = try runFMEval(["respond", "--schema", "/nonexistent/schema.json", "hi"])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/schema.json"))
    }
}
