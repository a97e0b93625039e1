import Foundation
import Testing

/// The forum-bug library's tool-calling reports (suites/forum: `.anyOf` arguments, extra and renamed
/// arguments, invented names, inputs confused with outputs, required with wrong names, a call streamed
/// as text), each file by name.
private let toolCallingSuites = [
    "anyof-tool-arguments", "extra-tool-arguments", "renamed-tool-arguments", "invented-tool-names",
    "inputs-confused-with-outputs", "required-wrong-argument-names", "tool-call-streamed-as-text",
].map { "suites/forum/\($0).yaml" }

/// What each case of those suites must come out as on the embedded engine: the grammar channel keeps
/// every call to its tool's schema (passed), while the device profile, the prompt channel and the
/// scripted stand-in for Apple's model reproduce the reported bug (knownIssue).
private let expectedStatuses = [
    "anyof-tool-arguments/city-outside-list@grammar": "passed",
    "anyof-tool-arguments/city-outside-list@device": "knownIssue",
    "anyof-tool-arguments/city-outside-list@prompt": "knownIssue",
    "anyof-tool-arguments/paris@grammar": "passed",
    "anyof-tool-arguments/paris@device": "passed",
    "extra-tool-arguments/vienna@grammar": "passed",
    "extra-tool-arguments/vienna@prompt": "knownIssue",
    "renamed-tool-arguments/ai-news@grammar": "passed",
    "renamed-tool-arguments/ai-news@prompt": "knownIssue",
    "invented-tool-names/search-cats@grammar": "passed",
    "invented-tool-names/search-cats@prompt": "knownIssue",
    "invented-tool-names/two-plus-two@grammar": "passed",
    "invented-tool-names/two-plus-two@prompt": "knownIssue",
    "inputs-confused-with-outputs/what-time@grammar": "passed",
    "inputs-confused-with-outputs/what-time@prompt": "knownIssue",
    "required-wrong-argument-names/vienna@grammar": "passed",
    "required-wrong-argument-names/vienna@prompt": "knownIssue",
    "tool-call-streamed-as-text/tokyo@grammar": "passed",
    "tool-call-streamed-as-text/tokyo@prompt": "knownIssue",
]

@Test func forumToolCallingReportsReproduceAsKnownIssuesAndTheGrammarRemovesThem() throws {
    let folder = try temporaryFolder()
    let (run, results) = try runSuite(toolCallingSuites, in: folder)
    #expect(run.status == 0, "reproduced bugs are known issues, so the run exits 0:\n\(run.stdout)\(run.stderr)")
    let document = try #require(results)
    let statuses = Dictionary(uniqueKeysWithValues: document.cases.map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") })
    #expect(statuses == expectedStatuses)
    for item in document.cases {
        let id = item["id"] as? String ?? ""
        guard let reproduction = item["reproduction"] as? [String: Any] else { continue }
        let reproduced = reproduction["reproduced"] as? Int ?? -1
        #expect(reproduction["trials"] as? Int == 4, "\(id): four wordings")
        if id.hasSuffix("@grammar") {
            #expect(reproduced == 0, "\(id): the grammar channel never reproduces the bug")
        } else {
            #expect(reproduced >= 1, "\(id): a known issue reproduces at least once")
            #expect(run.stdout.contains("KNOWN \(id)  "), "\(id) has its KNOWN line")
        }
    }
    #expect(run.stdout.contains("known issue: the call is streamed to the app as text deltas"))
    #expect(run.stdout.contains("  — reproduced 4/4 (95% CI 51%–100%)"))
}

@Test func everyForumToolCallingSuiteNamesItsSourceAndWhatReproducesIt() throws {
    let run = try runFMEval(["validate", "--json"] + toolCallingSuites)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    for path in toolCallingSuites {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(text.contains("\nsource:\n  url: https://"), "\(path) links its report")
        #expect(text.contains("\nreproducedWith: model\n") || text.contains("\nreproducedWith: scripted\n"), "\(path)")
        #expect(text.contains("\nsummary: |\n"), "\(path) summarises the report")
    }
}
