import Foundation
import Testing

/// Tool-call scoring end to end: the function-calling fixture suites run by the real binary, and `validate`
/// rejecting a matcher on an argument the tool does not declare.

@Test func functionCallingFixtureRunsWithEachAlterationsVerdict() throws {
    let folder = try temporaryFolder()
    let suite = packageRoot.appendingPathComponent("Tests/FMRunTests/Fixtures/function-calling/simple.yaml").path
    let (run, results) = try runSuite([suite], in: folder)
    #expect(run.status == 1, "\(run.stderr)")
    let document = try #require(results)
    #expect(document.statuses == [
        "as-expected": "passed", "optional-missing": "passed", "optional-wrong": "failed",
        "optional-case-and-punctuation-changed": "passed", "extra-argument": "failed",
        "integer-written-as-decimal": "failed", "wrong-value": "failed", "duplicate-call": "failed",
    ])
    let attempt = try document.attempts("integer-written-as-decimal")[0]
    let violations = try #require(attempt["violations"] as? [[String: Any]])
    #expect(violations.map { $0["path"] as? String } == ["/toolCalls/0/arguments/base"])
    let text = try String(contentsOfFile: folder.appendingPathComponent("results.json").path, encoding: .utf8)
    #expect(text.contains(#"\"base\": 10.0"#), "the recorded call keeps the model's 10.0")
}

@Test func validateRejectsAMatcherOnAnUndeclaredArgument() throws {
    let folder = try temporaryFolder()
    let suite = """
    suite: s
    engine: scripted
    tools:
      - { name: lookup, arguments: { type: object, properties: { query: { type: string } } }, output: found }
    cases:
      - id: a
        prompt: Find it.
        script: [ { text: done } ]
        expect: { toolCalls: { ordered: [ { name: lookup, arguments: { querry: it, query: { exact: it, optional: true } } } ] } }

    """
    try Data(suite.utf8).write(to: folder.appendingPathComponent("s.yaml"))
    let result = try runFMEval(["validate", folder.appendingPathComponent("s.yaml").path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("s.yaml:9:68: error: toolCalls: tool 'lookup' declares no argument 'querry' (did you mean 'query'? it declares query), so this matcher can never be met"), "\(result.stderr)")
    #expect(result.stdout.contains("1 suite, 0 cases, 1 error"), "\(result.stdout)")
}
