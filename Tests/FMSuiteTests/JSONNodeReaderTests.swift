import Testing
@testable import FMSuite

@Test func jsonReadsIntoLocatedNodes() throws {
    let node = try JSONNodeReader.parse("{\n  \"b\": [1, 2.5, true, null, \"x\\n\\u00e9\"],\n  \"a\": {\"true\": \"true\"}\n}", file: "f.json")
    #expect(node.mapping?.map(\.name) == ["b", "a"])
    #expect(node.description == "{b: [1, 2.5, true, null, x\né], a: {true: true}}")
    let items = try #require(node["b"]?.sequence)
    #expect(items[0].scalar?.value == .int(1))
    #expect(items[1].scalar?.value == .float(2.5))
    #expect(items[4].scalar?.value == .string("x\né"))
    #expect(node["a"]?["true"]?.scalar?.value == .string("true"))
    #expect(items[2].location == SourceLocation(file: "f.json", line: 2, column: 17))
}

@Test(arguments: [
    ("{\"a\": 1,}", 1, 9, "double-quoted object key"),
    ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
    ("[1, 2", 1, 6, "expected ',' or ']'"),
    ("{'a': 1}", 1, 2, "double-quoted object key"),
    ("{\"a\": tru}", 1, 7, "invalid JSON literal"),
    ("{\"a\": 01}", 1, 7, "leading zeros"),
    ("{\"a\": 1.}", 1, 9, "digit after '.'"),
    ("{\"a\": \"x", 1, 7, "unterminated JSON string"),
    ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key 'a'"),
    ("{} {}", 1, 4, "unexpected text after the JSON value"),
    ("", 1, 1, "empty JSON document"),
    ("{\"a\": \"\\x\"}", 1, 8, "invalid JSON escape"),
] as [(String, Int, Int, String)])
func jsonErrorsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    do {
        _ = try JSONNodeReader.parse(text, file: "f.json")
        Issue.record("expected an error for \(text)")
    } catch let error as Diagnostic {
        #expect(error.location.line == line && error.location.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }
}

@Test func jsonLineOffsetsNameTheDatasetLine() throws {
    do {
        _ = try JSONNodeReader.parse("{\"id\": }", file: "d.jsonl", lineOffset: 6)
        Issue.record("expected an error")
    } catch let error as Diagnostic {
        #expect(error.description.hasPrefix("d.jsonl:7:8: error:"))
    }
}

@Test func deepJSONIsAnErrorNotACrash() throws {
    do {
        _ = try JSONNodeReader.parse(String(repeating: "[", count: 100_000), file: "f.json")
        Issue.record("expected an error")
    } catch let error as Diagnostic {
        #expect(error.message.contains("levels deep"))
    }
    let deep = String(repeating: "{\"a\":", count: 150) + "1" + String(repeating: "}", count: 150)
    let node = try JSONNodeReader.parse(deep, file: "f.json")
    let suite = SuiteLoader.load(text: deep, file: "f.json")
    #expect(node.mapping?.count == 1 && !suite.diagnostics.isEmpty)
}
