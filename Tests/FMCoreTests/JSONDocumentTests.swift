import Testing
@testable import FMCore

@Test func documentErrorsNameFileLineColumnAndPath() throws {
    let text = "{\n  \"version\": 1,\n  \"type\": \"FoundationModels.Transcript\",\n  \"transcript\": {\"entries\": [\n    {\"role\": \"user\", \"id\": \"1\"}\n  ]}\n}"
    let document = try JSONDocument(text: text, file: "t.json")
    do {
        _ = try document.decode { try Transcript(content: $0) }
        Issue.record("decoded an entry without contents")
    } catch let error as JSONDocumentError {
        #expect(error.description == "t.json:5:5: at /transcript/entries/0: missing \"contents\" (the entry's list of segments)")
    }
}

@Test func documentParsingErrorsCarryTheLocation() {
    #expect(throws: JSONDocumentError(file: "x.json", location: .init(line: 2, column: 3), pointer: nil, message: "unexpected '}'; expected a quoted object key")) {
        try JSONDocument(text: "{\"a\": 1,\n  }", file: "x.json")
    }
}

@Test func schemaErrorsInDocumentsPointAtTheReference() throws {
    let document = try JSONDocument(text: ##"{"type": "object",\n "properties": {"a": {"$ref": "#/$defs/B"}}}"##.replacingOccurrences(of: "\\n", with: "\n"), file: "s.json")
    do {
        _ = try document.decode { try GenerationSchema(content: $0) }
        Issue.record("accepted an undefined reference")
    } catch let error as JSONDocumentError {
        #expect(error.location == .init(line: 2, column: 31))
        #expect(error.description.contains("'B'"))
    }
}

@Test func locationFallsBackToTheNearestParent() throws {
    let document = try JSONDocument(text: "{\n \"a\": {\"b\": 1}}", file: "f.json")
    #expect(document.location(of: "/a/missing/deeper") == .init(line: 2, column: 7))
    #expect(document.location(of: "/nothing") == .init(line: 1, column: 1))
}
