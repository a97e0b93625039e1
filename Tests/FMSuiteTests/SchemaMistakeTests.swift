import Foundation
import Testing
import FMCore
@testable import FMSuite

/// A schema mistake is reported once, at the key that is wrong, with the form to write; problems that
/// follow from it (inside the node, or checks that need the schema) are left out, and independent
/// mistakes are still reported.

/// The diagnostics of `text`, after checking there is exactly one, at `line`:`column`, containing `message`.
private func expectOnlyDiagnostic(_ text: String, file: String = "s.yaml", line: Int, column: Int, _ message: String,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let diagnostics = loadSuite(text, file: file).diagnostics
    #expect(diagnostics.count == 1, "\(diagnostics)", sourceLocation: sourceLocation)
    guard let only = diagnostics.first else { return }
    #expect(only.location.line == line && only.location.column == column, "\(only)", sourceLocation: sourceLocation)
    #expect(only.message.contains(message), "\(only.message)", sourceLocation: sourceLocation)
}

@Test func anyOfOfPlainValuesIsOneErrorAtTheKeyShowingTheEnum() {
    let suite = """
    suite: s
    generating:
      schema:
        type: object
        properties:
          label:
            anyOf: [positive, negative, neutral]
        required: [label]
    defaults:
      expect:
        - constraints: { maxViolations: 0 }
    cases:
      - { id: a, prompt: one }
      - { id: b, prompt: two }
      - { id: c, prompt: three }
    """
    expectOnlyDiagnostic(suite, line: 7, column: 9, """
        generating.schema: expected `anyOf` to be a list of schemas, found a list of strings; \
        a choice among fixed values is an `enum`, like:
          type: string
          enum: [positive, negative, neutral]
        """)
}

@Test func anyOfWrittenAsAMappingShowsTheListForm() {
    let suite = """
    suite: s
    generating:
      schema:
        type: object
        properties:
          label:
            anyOf:
              type: string
              enum: [a, b]
        required: [label]
    cases:
      - { id: a, prompt: one, expect: { constraints: { maxViolations: 0 } } }
    """
    expectOnlyDiagnostic(suite, line: 7, column: 9, """
        expected `anyOf` to be a list of schemas, found an object, like:
          anyOf:
            - type: string
              enum: [a, b]
        """)
}

@Test func anyOfBesideTypeWhereTheDialectWantsAnEnum() {
    let suite = """
    suite: s
    generating:
      schema:
        type: object
        properties:
          label: { type: string, anyOf: [yes-please, "no, thanks"] }
        required: [label]
    cases:
      - { id: a, prompt: one }
    """
    expectOnlyDiagnostic(suite, line: 6, column: 30, #"""
        like:
          type: string
          enum: [yes-please, "no, thanks"]
        """#)
}

@Test func anyOfOfSchemasBesideTypeMovesTheTypeIntoTheChoices() {
    let suite = """
    suite: s
    generating:
      schema:
        type: string
        anyOf:
          - enum: [a]
          - pattern: "[0-9]+"
    cases:
      - { id: a, prompt: one }
    """
    expectOnlyDiagnostic(suite, line: 5, column: 5, """
        `anyOf` cannot stand beside `type`: each choice has its own type; move `type` into the choices, like:
          anyOf:
            - type: string
              enum: [a]
            - type: string
              pattern: "[0-9]+"
        """)
}

@Test func aSchemaWithoutTypeIsReportedAtItsKeyWithTheTypeItsKeysImply() {
    let suite = """
    suite: s
    tools:
      - name: lookup
        arguments:
          type: object
          properties:
            mode:
              enum: [fast, slow]
            q: { type: string }
          required: [mode, q]
        output: found
    cases:
      - id: a
        prompt: one
        expect:
          - toolCalls: { ordered: [ { name: lookup, arguments: { mode: fast } } ] }
    """
    expectOnlyDiagnostic(suite, line: 7, column: 9, """
        tool 'lookup' arguments: a schema needs `type` (object, string, integer, number, boolean, null or array), \
        or `$ref` or `anyOf`; its keys describe a string, so write `type: string`, like:
          type: string
          enum: [fast, slow]
        """)
}

@Test func independentMistakesAreStillEachReported() throws {
    let suite = """
    suite: s
    generating:
      schema:
        type: object
        properties:
          label:
            anyOf: [positive, negative]
          score: { type: integer, minimum: 5, maximum: 1 }
        required: [label, score]
    cases:
      - { id: a, promt: one, expect: { constraints: { maxViolations: 0 } } }
    """
    let diagnostics = loadSuite(suite).diagnostics
    #expect(diagnostics.map { "\($0.location.line):\($0.location.column)" } == ["7:9", "8:7", "11:5", "11:14"],
            "\(diagnostics)")
    #expect(diagnostics.contains { $0.message.contains("expected `anyOf` to be a list of schemas") })
    #expect(diagnostics.contains { $0.message.contains("minimum 5 is above maximum 1") })
    #expect(diagnostics.contains { $0.message.contains("unknown key 'promt'") })
    #expect(!diagnostics.contains { $0.message.contains("generates free text") }, "a follow-on of the schema")
}

@Test func aJSONSuiteShowsTheFormAsJSON() {
    let suite = #"""
    {"suite": "s",
     "generating": {"schema": {"type": "object", "properties": {"label": {"anyOf": ["a", "b"]}}}},
     "cases": [{"id": "a", "prompt": "one"}]}
    """#
    expectOnlyDiagnostic(suite, file: "s.json", line: 2, column: 71, #"""
        a choice among fixed values is an `enum`, like:
          {"type":"string","enum":["a","b"]}
        """#)
}

@Test func aBrokenSchemaFileIsReportedInTheFileWithoutFollowOnsInTheSuite() throws {
    let folder = try makeFolder([
        "s.yaml": "suite: s\ngenerating: { schema: label.yaml }\n"
            + "cases:\n  - { id: a, prompt: one, expect: { constraints: {} } }\n",
        "label.yaml": "type: object\nproperties:\n  label:\n    anyOf: [a, b]\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let diagnostics = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path).diagnostics
    #expect(diagnostics.count == 1, "\(diagnostics)")
    #expect(diagnostics.first?.location.file.hasSuffix("label.yaml") == true && diagnostics.first?.location.line == 4)
}

@Test func aProblemInsideANodeReportedWholeIsAFollowOn() throws {
    let root = try YAMLParser.parse("a:\n  b: 1\n  c: [2, 3]\nd: 4\n", file: "x.yaml")
    let reader = SuiteReader(file: "x.yaml", registry: .builtIn)
    let entry = try #require(root.mapping?.first)
    reader.reportUnreadable(entry.value, key: entry.key, "root")
    reader.report(try #require(entry.value["c"]?.sequence?.last), "inside")
    reader.report(try #require(root["d"]), "elsewhere")
    #expect(reader.reportedDiagnostics.map(\.message) == ["root", "elsewhere"])
    #expect(reader.isUnreadable(root) && reader.isUnreadable(entry.value))
    #expect(!reader.isUnreadable(try #require(root["d"])))
}

@Test func theDocumentedRequiredLoopIdiomIsAValidSuite() throws {
    let doc = try String(contentsOf: suitePackageRoot.appendingPathComponent("docs/suite-format.md"), encoding: .utf8)
    let section = try #require(doc.range(of: "### The required-mode loop"))
    let start = try #require(doc.range(of: "```yaml\n", range: section.upperBound..<doc.endIndex))
    let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
    let example = String(doc[start.upperBound..<end.lowerBound])
    for idiom in ["toolCallingMode: required", "maxToolCalls: 2", "- error: toolCallLimitExceeded", "- toolCalls:"] {
        #expect(example.contains(idiom), "the documented idiom does not show \(idiom)")
    }
    let (suite, diagnostics) = loadSuite(example)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(suite?.expanded().first?.options.toolCallingMode == .required)
}
