import Foundation
import Testing
@testable import FMCore

@Test func parsesEveryKindAndKeepsKeyOrder() throws {
    let value = try GeneratedContent(json: #" {"z": 1, "a": [true, false, null, -2.5e1, "x\u00e9\n"], "m": {}} "#)
    #expect(value.orderedProperties?.map(\.key) == ["z", "a", "m"])
    #expect(value["z"]?.intValue == 1)
    #expect(value["a"] == [true, false, nil, -25, "xé\n"])
    #expect(value["m"] == GeneratedContent(properties: []))
    #expect(value.isComplete)
}

@Test func jsonStringIsCompactOrderedAndPrintsIntegersWithoutFraction() throws {
    let value: GeneratedContent = ["b": 3, "a": [1.5, -0.0, 1e300, "q\"\\\u{1}"], "c": nil]
    #expect(value.jsonString == #"{"b":3,"a":[1.5,0,1e+300,"q\"\\\u0001"],"c":null}"#)
    #expect(try GeneratedContent(json: value.jsonString) == value)
    #expect(GeneratedContent(kind: .number(.nan)).jsonString == "null")
}

@Test func indentedJSONStringRoundTrips() throws {
    let value: GeneratedContent = ["a": [1, 2], "b": ["c": "d"], "e": [], "f": GeneratedContent(properties: [])]
    let text = value.jsonString(indent: 2)
    #expect(text.contains("\n  \"a\": [\n    1,"))
    #expect(try GeneratedContent(json: text) == value)
}

@Test func equalityIgnoresKeyOrderButNotValues() throws {
    let a = try GeneratedContent(json: #"{"x": 1, "y": [1, 2]}"#)
    let b = try GeneratedContent(json: #"{"y": [1, 2], "x": 1.0}"#)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != (try GeneratedContent(json: #"{"y": [2, 1], "x": 1}"#)))
    #expect(Set([a, b]).count == 1)
}

@Test func surrogatePairsDecode() throws {
    #expect(try GeneratedContent(json: #""\ud83d\ude00""#).stringValue == "😀")
}

@Test(arguments: [
    ("", 1, 1, "empty"),
    ("{\"a\": 1,\n  \"b\" 2}", 2, 7, "expected ':'"),
    ("[1, 2", 1, 6, "ends"),
    ("{\"a\": tru}", 1, 10, "'true'"),
    ("[01]", 1, 2, "leading zeros"),
    ("\"abc", 1, 1, "unterminated string"),
    ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate object key \"a\""),
    ("[1] x", 1, 5, "after the JSON value"),
    ("\"\\q\"", 1, 2, "invalid escape"),
    ("{\n\"é\": ]", 2, 6, "expected a JSON value"),
    ("[1e]", 1, 4, "exponent"),
    ("\"a\tb\"", 1, 3, "control character"),
    ("\"\\ud83d\"", 1, 8, "low surrogate"),
    ("\"\\ude00\"", 1, 2, "lone low surrogate"),
])
func malformedJSONReportsLineAndColumn(text: String, line: Int, column: Int, fragment: String) {
    do {
        _ = try GeneratedContent(json: text)
        Issue.record("parsed malformed JSON \(text)")
    } catch let error as GeneratedContent.ParsingError {
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.description.contains(fragment), "\(error)")
    } catch {
        Issue.record("unexpected error \(error)")
    }
}

@Test func deepNestingIsAnErrorNotACrash() {
    let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: GeneratedContent.ParsingError.self) { try GeneratedContent(json: text) }
}

@Test func locationsAreRecordedByPointer() throws {
    let (_, locations) = try GeneratedContent.parseWithLocations(json: "{\n  \"a\": [\n    {\"b/c\": 1}\n  ]\n}")
    #expect(locations[""] == .init(line: 1, column: 1))
    #expect(locations["/a"] == .init(line: 2, column: 8))
    #expect(locations["/a/0/b~1c"] == .init(line: 3, column: 13))
}

@Test func codableRoundTripThroughFoundation() throws {
    let value: GeneratedContent = ["name": "brioche", "count": 3, "ratio": 0.5, "ok": true, "none": nil, "list": ["a", 1]]
    let data = try JSONEncoder().encode(value)
    let decoded = try JSONDecoder().decode(GeneratedContent.self, from: data)
    #expect(decoded == value)
    #expect(decoded.orderedProperties?.map(\.key) == ["count", "list", "name", "none", "ok", "ratio"], "sorted for determinism")
    #expect(String(decoding: data, as: UTF8.self).contains("\"count\":3"))
}
