import Foundation
import Testing
import FMCore
import FMEvaluate
@testable import FMReport
@testable import FMResults

private let origin = SuiteOrigin(url: "https://developer.apple.com/forums/thread/812501", title: ".anyOf guide <not> enforced",
                                 reproducedWith: .model, summary: "What was reported.")

/// A `reproduce` case of suite `forum` from its attempt outcomes, with a known issue unless `issue` is nil.
private func reproducedCase(_ id: String, variant: String? = nil, _ outcomes: [AttemptOutcome],
                            issue: KnownIssue? = KnownIssue(reason: "guide not enforced", url: "https://example.com/issues/7")) -> CaseResult {
    CaseResult(id: CaseResult.stableID(suite: "forum", caseID: id, variant: variant), suite: "forum", caseID: id, variant: variant,
               knownIssue: issue, attempts: outcomes.enumerated().map { sampleAttempt($0.offset, $0.element) }, durationMs: 10,
               measuresReproduction: true, origin: origin)
}

private func reproductionRun() -> RunResult {
    RunResult(run: sampleInfo(), cases: [
        reproducedCase("beijing", variant: "prompt", [.passed, .failed, .failed, .passed, .passed, .passed, .passed, .passed]),
        reproducedCase("paris", variant: "grammar", [.passed, .passed, .passed, .passed]),
        reproducedCase("plain", [.passed, .passed], issue: nil),
    ])
}

@Test func wilsonFiguresOfReproduction() {
    let two = Reproduction(reproduced: 2, trials: 8)
    #expect(abs(two.lower - 0.0715) < 1e-4 && abs(two.upper - 0.5907) < 1e-4)
    #expect(two.description == "reproduced 2/8 (95% CI 7%–59%)")
    let none = Reproduction(reproduced: 0, trials: 4)
    #expect(none.lower == 0 && abs(none.upper - 0.4899) < 1e-4)
    #expect(none.description == "reproduced 0/4 (95% CI 0%–49%)")
    #expect(Reproduction(reproduced: 8, trials: 8).description == "reproduced 8/8 (95% CI 68%–100%)")
    let mixed = Reproduction(outcomes: [.failed, .error, .passed, .failed])
    #expect(mixed.trials == 3 && mixed.reproduced == 2, "an error attempt is not a trial")
}

@Test func terminalCaseLinesEndWithTheReproductionRate() {
    let run = reproductionRun()
    let known = TerminalText.caseLine(run.cases[0])
    #expect(known.hasPrefix("KNOWN forum/beijing@prompt  6/8  0.01 s"))
    #expect(known.hasSuffix("  — reproduced 2/8 (95% CI 7%–59%)"))
    #expect(TerminalText.caseLine(run.cases[1]).hasSuffix("— reproduced 0/4 (95% CI 0%–49%)"))
    #expect(TerminalText.caseLine(run.cases[1]).contains("known issue no longer reproduces"))
    #expect(TerminalText.caseLine(sampleCase("s", "ok", [.passed])) == "PASS  s/ok  1/1  0.03 s", "other cases print as before")
    #expect(known.contains("known issue: guide not enforced"), "the reason is on the case line, once")
    #expect(!TerminalText.closing(GateVerdict(results: run)).contains("KNOWN"), "known issues are only counted there")
}

@Test func resultsJSONCarriesTheReproductionPerCase() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = String(decoding: try encoder.encode(reproductionRun().cases[0]), as: UTF8.self)
    #expect(json.contains(#""reproduction":{"lower":0.0714792"#))
    #expect(json.contains(#""reproduced":2,"trials":8,"upper":0.5907"#))
    #expect(json.contains(#""origin":{"reproducedWith":"model","summary":"What was reported.","title":".anyOf guide <not> enforced","url":"https://developer.apple.com/forums/thread/812501"}"#))
}

@Test(.enabled(if: xmllintRunnable)) func junitNamesEachReproductionAsASuiteProperty() throws {
    let xml = JUnitReport.render(reproductionRun())
    #expect(xml.contains(#"<property name="fmeval.reproduction.beijing" value="reproduced 2/8 (95% CI 7%–59%)"/>"#), "\(xml)")
    #expect(xml.contains(#"<property name="fmeval.reproduction.paris" value="reproduced 0/4 (95% CI 0%–49%)"/>"#))
    let result = try checkJUnit(xml)
    #expect(result.status == 0, "\(result.output)")
}

@Test func htmlKnownIssuesSectionListsReproducedAndFixedCasesWithTheirReports() throws {
    let html = HTMLReport.render(reproductionRun())
    let start = try #require(html.range(of: #"<section id="known-issues"><h2>Known issues</h2>"#))
    let section = String(html[start.lowerBound...].prefix { _ in true }).components(separatedBy: "</section>")[0]
    #expect(section.contains("1 reproduced, 1 no longer reproduces"))
    #expect(section.contains(##"<a href="#case-0">forum/beijing@prompt</a></td><td><span class="badge knownIssue">reproduced</span></td><td class="num">2/8 (7%–59%)</td>"##), "\(section)")
    #expect(section.contains(#"<span class="badge failed">no longer reproduces</span></td><td class="num">0/4 (0%–49%)</td>"#))
    #expect(section.contains(#"guide not enforced <a href="https://example.com/issues/7" rel="noopener noreferrer">https://example.com/issues/7</a>"#))
    #expect(section.contains(#"<a href="https://developer.apple.com/forums/thread/812501" rel="noopener noreferrer">.anyOf guide &lt;not&gt; enforced</a></td><td>model</td>"#))
    #expect(!section.contains("forum/plain"), "a case without a known issue is not listed")
    #expect(section.range(of: "beijing")!.lowerBound < section.range(of: "paris")!.lowerBound, "reproduced first")
    #expect(html.contains("Content-Security-Policy") && !html.contains("<script src") && !html.contains("<link"))
    let hostile = RunResult(run: sampleInfo(), cases: [reproducedCase("x", [.failed], issue: KnownIssue(reason: "r", url: "javascript:alert(1)"))])
    #expect(!HTMLReport.render(hostile).contains("href=\"javascript:"))
    #expect(!HTMLReport.render(RunResult(run: sampleInfo(), cases: [sampleCase("s", "ok", [.passed])])).contains("known-issues"))
}

@Test func catalogueChecksSayWhatEachExpectationChecks() throws {
    func expectation(_ json: String) throws -> FMEvaluate.Expectation { try JSONDecoder().decode(FMEvaluate.Expectation.self, from: Data(json.utf8)) }
    let tools = try expectation(#"{"toolCalls": {"ordered": [{"name": "getCityInfo", "arguments": [{"argument": "city", "oneOf": ["London", "New York", "Paris"]}]}]}}"#)
    #expect(CatalogueChecks.describe(tools) == "toolCalls: getCityInfo(city ∈ {London, New York, Paris})")
    let strict = try expectation(#"{"toolCalls": {"ordered": [{"name": "getTime", "arguments": [{"argument": "timezone", "keyOnly": true}], "allowsAdditionalArguments": false}], "disallowed": [{"name": "addition"}], "allowsAdditionalToolCalls": false}}"#)
    #expect(CatalogueChecks.describe(strict) == "toolCalls: getTime(timezone present, nothing else); never addition; no other calls")
    let contains = try expectation(#"{"contains": {"substrings": ["weather"]}}"#)
    #expect(CatalogueChecks.describe([contains, try expectation(#"{"equals": {"value": "positive"}}"#)]) == "contains: weather; equals: positive")
}

@Test func catalogueIsATablePerSuiteWithRatesAndNoTimings() {
    let run = reproductionRun()
    let suites = [
        CatalogueSuite(name: "forum-b", description: "Second | bug", origin: nil, file: "suites/forum/b.yaml",
                       cases: [CatalogueCase(caseID: "plain", variant: nil, checks: "contains: x", result: run.cases[2]),
                               CatalogueCase(caseID: "missing", variant: nil, checks: "contains: y", result: nil)]),
        CatalogueSuite(name: "forum-a", description: "First bug", origin: origin, file: "suites/forum/a.yaml",
                       cases: [CatalogueCase(caseID: "beijing", variant: "prompt", checks: "toolCalls: getCityInfo(city ∈ {Paris})", result: run.cases[0]),
                               CatalogueCase(caseID: "paris", variant: "grammar", checks: "contains: Paris", result: run.cases[1])]),
    ]
    let text = Catalogue.markdown(suites, command: "fmeval catalogue suites/forum --output docs/forum-bugs.md")
    #expect(text == Catalogue.markdown(suites.reversed(), command: "fmeval catalogue suites/forum --output docs/forum-bugs.md"), "suites are sorted")
    #expect(text.contains("<!-- Generated by `fmeval catalogue suites/forum --output docs/forum-bugs.md`; do not edit by hand. -->"))
    #expect(text.contains("| [forum-a](#forum-a) | First bug | model | 1/2 |\n| [forum-b](#forum-b) | Second \\| bug |  | 0/2 |"))
    #expect(text.contains("- **Source:** [.anyOf guide <not> enforced](https://developer.apple.com/forums/thread/812501)"))
    #expect(text.contains("- **Reproduced with:** model — the real model on the engine that ran"))
    #expect(text.contains("| beijing | prompt | toolCalls: getCityInfo(city ∈ {Paris}) | 2/8 | 7%–59% | known issue, reproduces |"))
    #expect(text.contains("| paris | grammar | contains: Paris | 0/4 | 0%–49% | known issue no longer reproduces |"))
    #expect(text.contains("| plain | — | contains: x | 0/2 | 0%–66% | passes |"))
    #expect(text.contains("| missing | — | contains: y | not run |  | not run |"))
    #expect(text.range(of: "## forum-a")!.lowerBound < text.range(of: "## forum-b")!.lowerBound)
    #expect(!text.contains(" s |") && !text.contains(" ms"), "no timings")
}
