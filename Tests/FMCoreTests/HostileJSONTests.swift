import Foundation
import Testing
@testable import FMCore

/// Seconds `body` took, printed with `label` (no clock assertions: the verdicts are what is checked).
private func timed<Result>(_ label: String, _ body: () throws -> Result) rethrows -> Result {
    let start = Date()
    let result = try body()
    print("\(label): \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    return result
}

/// Pathological inputs that took minutes with position rescans, re-validated `anyOf` branches and a
/// backtracking `pattern`; each is generated at a size the old code could not finish in time.
@Suite struct HostileJSONTests {
    @Test func oneLineArrayOfManyIntegersParsesWithLocations() throws {
        let count = 200_000
        let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        let (content, locations) = try timed("one-line array of \(count) integers, with locations") {
            try GeneratedContent.parseWithLocations(json: text)
        }
        #expect(content.arrayValue?.count == count)
        let lastColumn = text.utf8.count - String(count - 1).utf8.count
        #expect(locations["/\(count - 1)"] == GeneratedContent.SourceLocation(line: 1, column: lastColumn))
        #expect(locations["/1"] == GeneratedContent.SourceLocation(line: 1, column: 4))
    }

    @Test func locationsCountScalarsAcrossLinesAndMultibyteText() throws {
        let text = "{\"é☀\": [1,\n  \"x\", {\"k\": true}],\n\"b\": null}"
        let (_, locations) = try GeneratedContent.parseWithLocations(json: text)
        #expect(locations["/é☀"]?.description == "1:8")
        #expect(locations["/é☀/1"]?.description == "2:3")
        #expect(locations["/é☀/2/k"]?.description == "2:14")
        #expect(locations["/b"]?.description == "3:6")
    }

    @Test func malformedOneLineInputIsLocatedQuickly() throws {
        let text = "[" + (0..<200_000).map(String.init).joined(separator: ",") + ",]"
        do {
            _ = try timed("malformed one-line array") { try JSONDocument(text: text, file: "big.json") }
            Issue.record("accepted a trailing comma")
        } catch let error as JSONDocumentError {
            #expect(error.location == GeneratedContent.SourceLocation(line: 1, column: text.unicodeScalars.count))
            #expect(error.description.hasPrefix("big.json:1:\(text.unicodeScalars.count): "))
        }
    }

    /// Two object choices that differ only in `tag`, recursing through `next`: the first choice fails
    /// only at its tag, after checking the whole chain below, so re-checking per branch doubles per level.
    static let chainSchema = """
    {"$defs": {"Node": {"anyOf": [
      {"type": "object", "properties": {"tag": {"type": "string", "enum": ["a"]}, "next": {"$ref": "#/$defs/Node"}}, "required": ["tag", "next"]},
      {"type": "object", "properties": {"tag": {"type": "string", "enum": ["b"]}, "next": {"$ref": "#/$defs/Node"}}, "required": ["tag", "next"]},
      {"type": "null"}]}},
     "$ref": "#/$defs/Node"}
    """

    static func chain(depth: Int, last: String = "null") -> String {
        String(repeating: #"{"tag": "b", "next": "#, count: depth) + last + String(repeating: "}", count: depth)
    }

    @Test func anyOfOverRecursiveReferencesIsPolynomial() throws {
        let schema = try GenerationSchema(json: Self.chainSchema)
        let depth = 200
        let valid = try GeneratedContent(json: Self.chain(depth: depth))
        #expect(timed("anyOf chain of depth \(depth), valid") { SchemaValidator.violations(of: valid, against: schema) }.isEmpty)
        let invalid = try GeneratedContent(json: Self.chain(depth: depth, last: "5"))
        let found = timed("anyOf chain of depth \(depth), invalid at the bottom") { SchemaValidator.violations(of: invalid, against: schema) }
        #expect(found.map(\.keyword) == [.anyOf])
        #expect(found.first?.path == "")
    }

    @Test func nestedQuantifiersDoNotBacktrack() throws {
        let schema = try GenerationSchema(json: #"{"type": "string", "pattern": "^(a+)+$"}"#)
        let length = 100_000
        let failing = GeneratedContent(String(repeating: "a", count: length) + "b")
        let found = timed("^(a+)+$ against \(length) a's and a b") { SchemaValidator.violations(of: failing, against: schema) }
        #expect(found.map(\.keyword) == [.pattern])
        let passing = GeneratedContent(String(repeating: "a", count: length))
        #expect(timed("^(a+)+$ against \(length) a's") { SchemaValidator.violations(of: passing, against: schema) }.isEmpty)
    }

    @Test func integersBeyondTwoToThe53AreComparedExactly() throws {
        let schema = try GenerationSchema(json: #"{"type": "integer", "minimum": -9007199254740992, "maximum": 9007199254740992}"#)
        func keywords(_ json: String) throws -> [Violation.Keyword] {
            SchemaValidator.violations(of: try GeneratedContent(json: json), against: schema).map(\.keyword)
        }
        #expect(try keywords("9007199254740993") == [.maximum])
        #expect(try keywords("9007199254740992") == [])
        #expect(try keywords("-9007199254740993") == [.minimum])
        #expect(try keywords("-9007199254740992") == [])
        #expect(try keywords("18446744073709551617") == [.maximum])
        let fractional = try GenerationSchema(json: #"{"type": "integer", "maximum": 9007199254740990.5}"#)
        #expect(SchemaValidator.violations(of: try GeneratedContent(json: "9007199254740991"), against: fractional).map(\.keyword) == [.maximum])
        let exactBounds = try GenerationSchema(json: #"{"type": "integer", "minimum": -9007199254740995, "maximum": 9007199254740993}"#)
        func exactKeywords(_ json: String) throws -> [Violation.Keyword] {
            SchemaValidator.violations(of: try GeneratedContent(json: json), against: exactBounds).map(\.keyword)
        }
        #expect(try exactKeywords("9007199254740993") == [] && exactKeywords("9007199254740994") == [.maximum])
        #expect(try exactKeywords("-9007199254740995") == [] && exactKeywords("-9007199254740996") == [.minimum])
        #expect(try exactKeywords("9007199254740992") == [] && exactKeywords("0") == [])
        #expect(exactBounds.jsonString.contains("9007199254740993") && exactBounds.jsonString.contains("-9007199254740995"))
        let message = SchemaValidator.violations(of: try GeneratedContent(json: "9007199254740993"), against: schema).first?.message
        #expect(message?.contains("is 9007199254740993, above the maximum 9007199254740992") == true, "\(message ?? "")")
    }

    @Test func exactIntegersRoundTripThroughJSONText() throws {
        for text in ["9007199254740993", "-123456789012345678901234567890", "[18446744073709551617]"] {
            #expect(try GeneratedContent(json: text).jsonString == text)
        }
        #expect(try GeneratedContent(json: "9007199254740993.0").exactInteger == nil, "only integer literals are kept exact")
    }
}

/// `ExactInteger` orders by value, against other integers and against any finite `Double`.
@Suite struct ExactIntegerTests {
    @Test func parsingNormalizesSignAndZeros() {
        #expect(ExactInteger(literal: "-000")?.description == "0")
        #expect(ExactInteger(literal: "0042")?.description == "42")
        #expect(ExactInteger(literal: "4x") == nil && ExactInteger(literal: "-") == nil && ExactInteger(literal: "") == nil)
        #expect(ExactInteger(1e20)?.description == "100000000000000000000")
        #expect(ExactInteger(0.5) == nil)
    }

    @Test(arguments: [
        ("9007199254740993", "9007199254740992", 1), ("-9007199254740993", "-9007199254740992", -1), ("5", "5", 0),
        ("-1", "1", -1), ("100", "99", 1), ("-100", "-99", -1), ("0", "-0", 0),
    ])
    func integersCompareByValue(left: String, right: String, order: Int) throws {
        let (a, b) = (try #require(ExactInteger(literal: left)), try #require(ExactInteger(literal: right)))
        #expect(a.compare(to: b) == order)
        #expect(b.compare(to: a) == -order)
    }

    @Test(arguments: [("3", 2.5, 1), ("2", 2.5, -1), ("-3", -2.5, -1), ("-2", -2.5, 1), ("9007199254740993", 9007199254740992.0, 1), ("0", 0.0, 0)])
    func integersCompareExactlyWithDoubles(integer: String, value: Double, order: Int) throws {
        #expect(try #require(ExactInteger(literal: integer)).compare(to: value) == order)
    }
}
