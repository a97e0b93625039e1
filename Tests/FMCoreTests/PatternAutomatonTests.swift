import Testing
@testable import FMCore

/// The shared pattern automaton: whole-string matching of the documented subset, refusals with positions.
@Suite struct PatternAutomatonTests {
    private func matches(_ pattern: String, _ text: String) throws -> Bool {
        try PatternAutomaton(pattern: pattern).matches(text)
    }

    @Test(arguments: [
        (#"^\d{3}-\d{4}$"#, "555-1234", true), (#"\d{3}-\d{4}"#, "x555-1234", false), ("b", "abc", false),
        ("a|bc", "bc", true), ("a|bc", "abc", false), ("(ab)*", "", true), ("(ab)*", "aba", false),
        ("[A-Z]{2,3}_[a-z0-9]+", "ABC_007", true), ("[A-Z]{2,3}_[a-z0-9]+", "ABCD_x", false),
        ("[^a-z]x", "Qx", true), ("[^a-z]x", "qx", false), (".", "\n", false), (".", "é", true), ("\\.", "x", false),
        (#"\u00e9+"#, "éé", true), ("(?:Mr|Ms)\\.? [A-Z]\\w*", "Ms. Lee", true), ("a{2}", "aaa", false), ("a{2,}", "aaaaa", true),
        ("(a*)*b", "aaab", true), ("x??y+?", "xy", true), ("", "", true), ("", "a", false),
    ])
    func wholeStringSemantics(pattern: String, text: String, expected: Bool) throws {
        #expect(try matches(pattern, text) == expected, "\(pattern) on \(text)")
    }

    @Test(arguments: [
        (#"(?=a)b"#, 2), (#"(a)\1"#, 4), (#"\bword"#, 1), (#"(?i)abc"#, 2), (#"\p{L}+"#, 1), (#"a{1,999}"#, 5), (#"a^b"#, 2),
        ("(ab", 4), ("[a-", 4), ("*a", 1),
    ])
    func unsupportedPatternsSayWhere(pattern: String, position: Int) {
        do {
            _ = try RegexPattern(pattern)
            Issue.record("\(pattern) was accepted")
        } catch let error as PatternSyntaxError {
            #expect(error.position == position, "\(pattern): \(error)")
            #expect(error.description.hasPrefix("pattern character \(position): "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func countedRepetitionsThatExplodeAreRefused() {
        #expect(throws: PatternSyntaxError.self) { try RegexPattern("((a{256}){256}){2}") }
        #expect(throws: Never.self) { try RegexPattern("[a-z]{256}") }
    }

    @Test func schemasRefuseUnsupportedPatternsWithTheirPath() {
        do {
            _ = try GenerationSchema(json: #"{"type": "object", "properties": {"p": {"type": "string", "pattern": "(?<y>\\d)"}}}"#)
            Issue.record("accepted a named group")
        } catch let error as SchemaError {
            #expect(error.description.contains("/properties/p/pattern") && error.description.contains("pattern character 2"), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func validationMatchesTheWholeStringAndSaysSo() throws {
        let schema = try GenerationSchema(json: #"{"type": "string", "pattern": "[0-9]+"}"#)
        let found = SchemaValidator.violations(of: "order 66", against: schema)
        #expect(found.map(\.keyword) == [.pattern])
        #expect(found.first?.message.contains("as a whole") == true, "\(found)")
        #expect(SchemaValidator.violations(of: "66", against: schema).isEmpty)
    }
}
