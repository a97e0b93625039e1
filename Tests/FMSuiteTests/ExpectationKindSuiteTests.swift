import Testing
import FMEvaluate
@testable import FMSuite

private let head = "suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect:\n"

/// An unknown expectation keyword is reported at its key with a did-you-mean over the registry's keywords.
@Test(arguments: [
    (head + "      - contians: Paris\n", 6, 9, "unknown key 'contians'; did you mean 'contains'? (an expectation kind)"),
    (head + "      - not: { regx: a }\n", 6, 16, "unknown key 'regx'; did you mean 'regex'? (an expectation kind)"),
    (head + "      - schemma: schema.json\n", 6, 9, "unknown key 'schemma'; did you mean 'schema'? (an expectation kind)"),
    (head + "      - toolcalls: { disallowed: [lookup] }\n", 6, 9, "did you mean 'toolCalls'?"),
    (head + "      - xyzzyplugh: 1\n", 6, 9, "unknown key 'xyzzyplugh'; valid keys here: " + ExpectationRegistry.builtIn.keywords.sorted().joined(separator: ", ")),
] as [(String, Int, Int, String)])
func unknownExpectationKindsAreLocatedWithASuggestion(text: String, line: Int, column: Int, message: String) throws {
    let found = try expectLocatedDiagnostic(text, message, line: line, column: column)
    #expect(found.description.hasPrefix("s.yaml:\(line):\(column): error: "))
}

/// Each kind's shorthand loads to the same expectation as its full form.
@Test(arguments: [
    ("equals: Paris", "equals: { value: Paris }"),
    ("oneOf: [a, b]", "oneOf: { values: [a, b] }"),
    ("contains: Paris", "contains: { substrings: [Paris] }"),
    ("regex: '^P'", "regex: { pattern: '^P' }"),
    ("not: { contains: Rome }", "not: { contains: { substrings: [Rome] } }"),
    ("error: refusal", "error: { caseName: refusal }"),
    ("error:", "error: {}"),
    ("snapshots: 2", "snapshots: { minimum: 2, maximum: 2 }"),
    ("command: [./check.sh]", "command: { argv: [./check.sh] }"),
    ("schema: { type: string }", "constraints: { schema: { type: string } }"),
    ("toolCalls: { disallowed: [lookup] }", "toolCalls: { disallowed: [{ name: lookup }] }"),
])
func shorthandsLoadAsTheirFullForm(shorthand: String, full: String) throws {
    func load(_ expectation: String) throws -> [FMEvaluate.Expectation] {
        let (suite, diagnostics) = loadSuite(baseSuite + "\n    expect:\n      - " + expectation + "\n")
        #expect(diagnostics.isEmpty, "\(expectation): \(diagnostics)")
        return try #require(suite?.cases.first?.expect)
    }
    let short = try load(shorthand)
    let long = try load(full)
    #expect(short.count == 1 && short == long, "\(shorthand)")
}
