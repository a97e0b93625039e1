import Foundation
import Testing
import FMEvaluate
@testable import FMSuite

/// Every `knownIssue:` problem, each at its line:column.
@Test(arguments: [
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { url: 'https://e.com/1' }\n", 5, 17, "knownIssue needs a 'reason'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, url: 'ftp://e.com/1' }\n", 5, 35, "must be an http or https link, not ftp:"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, url: not a link }\n", 5, 35, "is not a URL"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, ulr: 'https://e.com' }\n", 5, 30, "unknown key 'ulr'; did you mean 'url'? (in knownIssue)"),
    ("suite: x\nknownIssue: { reason: r, variants: [v] }\ncases:\n  - id: a\n    prompt: hi\n", 2, 26, "unknown key 'variants'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: ''\n", 5, 17, "knownIssue reason is empty"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: 3\n", 5, 17, "knownIssue must be a string"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knonwIssue: r\n", 5, 5, "did you mean 'knownIssue'?"),
    ("suite: x\nvariants:\n  - name: v\n    knownIssue: { reasn: r }\ncases:\n  - id: a\n    prompt: hi\n", 4, 19, "did you mean 'reason'?"),
    ("suite: x\nvariants: [ { name: grammar } ]\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, variants: [gramar] }\n", 6, 40, "names variant 'gramar', which the suite does not define; did you mean 'grammar'?"),
    ("suite: x\nvariants: [ { name: p }, { name: q } ]\ncases:\n  - id: a\n    prompt: hi\n    variants: [p]\n    knownIssue: { reason: r, variants: [q] }\n", 7, 40, "the case only runs under p"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, variants: [] }\n", 5, 40, "knownIssue variants is empty"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, matching: [equals, refusl] }\n", 5, 49,
     "knownIssue matching names 'refusl', which is no expectation kind, metric or error; did you mean 'refusal'?"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, matching: [] }\n", 5, 40, "knownIssue matching is empty"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    knownIssue: { reason: r, intermittent: 1 }\n", 5, 44, "knownIssue intermittent must be"),
] as [(String, Int, Int, String)])
func knownIssueErrorsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    try expectLocatedDiagnostic(text, message, line: line, column: column)
}

@Test func knownIssuesLayerCaseOverVariantOverSuite() throws {
    let text = """
    suite: k
    knownIssue: { reason: suite-wide, url: 'https://example.com/suite' }
    variants:
      - name: grammar
      - name: prompt-only
        knownIssue: prompt channel only
    cases:
      - { id: plain, prompt: hi }
      - id: own
        prompt: hi
        knownIssue: { reason: the case's own, url: 'http://example.com/case' }
      - id: scoped
        prompt: hi
        knownIssue: { reason: only under grammar, variants: [grammar] }
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let expanded = try #require(suite).expanded()
    let issues = Dictionary(uniqueKeysWithValues: expanded.map { ($0.id, $0.knownIssue) })
    #expect(issues["k/plain@grammar"] == KnownIssue(reason: "suite-wide", url: "https://example.com/suite"))
    #expect(issues["k/plain@prompt-only"] == KnownIssue(reason: "prompt channel only"))
    #expect(issues["k/own@grammar"] == KnownIssue(reason: "the case's own", url: "http://example.com/case"))
    #expect(issues["k/own@prompt-only"] == KnownIssue(reason: "the case's own", url: "http://example.com/case"))
    #expect(issues["k/scoped@grammar"] == KnownIssue(reason: "only under grammar"))
    #expect(issues["k/scoped@prompt-only"] == KnownIssue(reason: "prompt channel only"))
}

@Test func matchingAndIntermittentAreReadAndAnIssueWithoutMatchingIsWarnedAbout() throws {
    let text = """
    suite: k
    cases:
      - id: matched
        prompt: hi
        knownIssue: { reason: r, matching: [equals, toolCalls.percentagePass, toolCallFailed], intermittent: true }
      - id: any
        prompt: hi
        knownIssue: r
    """
    let (suite, diagnostics, warnings) = SuiteLoader.read(text: text, file: "k.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let issues = Dictionary(uniqueKeysWithValues: try #require(suite).expanded().map { ($0.caseID, $0.knownIssue) })
    #expect(issues["matched"] == KnownIssue(reason: "r", matching: ["equals", "toolCalls.percentagePass", "toolCallError"],
                                            intermittent: true), "a deprecated error name reads as its current one")
    #expect(issues["any"] == KnownIssue(reason: "r"))
    #expect(warnings.count == 1 && warnings[0].location.line == 8, "\(warnings)")
    #expect(warnings.first?.message.contains("knownIssue has no 'matching', so it covers any failure") == true)
}

@Test func casesWithoutAKnownIssueHaveNone() throws {
    let (suite, diagnostics) = loadSuite(baseSuite)
    #expect(diagnostics.isEmpty)
    #expect(try #require(suite).expanded().allSatisfy { $0.knownIssue == nil })
}

@Test func datasetLinesTakeKnownIssues() throws {
    let folder = try makeFolder([
        "s.yaml": "suite: d\ndataset: d.jsonl\n",
        "d.jsonl": #"{"id": "a", "prompt": "hi", "knownIssue": {"reason": "small model", "url": "https://e.com/2"}}"# + "\n"
            + #"{"id": "b", "prompt": "hi", "knownIssue": {"reason": "bad", "url": "mailto:x@e.com"}}"# + "\n",
    ])
    let (suite, diagnostics) = SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.location.line == 2)
    #expect(diagnostics.first?.message.contains("not mailto:") == true)
    let expanded = try #require(suite).expanded()
    #expect(expanded.first { $0.caseID == "a" }?.knownIssue == KnownIssue(reason: "small model", url: "https://e.com/2"))
}
