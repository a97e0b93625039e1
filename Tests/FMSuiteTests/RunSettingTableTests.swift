import Foundation
import Testing
import FMCore
@testable import FMSuite

/// The run-setting rows of docs/suite-format.md's `options` table are the table's, in its order: the docs
/// cannot drift from what the reader accepts. On a mismatch the message holds the rows to paste.
@Test func theDocsTableOfRunSettingsIsTheTable() throws {
    let doc = try String(contentsOf: suitePackageRoot.appendingPathComponent("docs/suite-format.md"), encoding: .utf8)
    let section = try #require(doc.components(separatedBy: "## `options`").dropFirst().first)
    let rows = section.split(separator: "\n").map(String.init).prefix { !$0.hasPrefix("```") }
        .filter { $0.hasPrefix("| `") }
    let generationKeys = ["sampling", "temperature", "maximumResponseTokens", "toolCallingMode"]
    let settingRows = rows.filter { row in !generationKeys.contains { row.hasPrefix("| `\($0)`") } }
    let expected = RunSettingTable.all.map(\.docsRow)
    #expect(settingRows == expected,
            "docs/suite-format.md's run-setting rows should read:\n\(expected.joined(separator: "\n"))")
}

/// Every setting reads from a suite, layers case over variant over suite, and resolves; absent, each
/// resolves to `RunSettings()`'s value.
@Test func everySettingReadsLayersAndResolves() throws {
    let text = """
    suite: s
    engine: scripted
    options: { contextSize: 1000, imageTokens: 3, constrained: false, includeSchemaInPrompt: false }
    variants:
      - { name: v, options: { stream: true, maxToolCalls: 2, contextSize: 2000 } }
    cases:
      - id: c
        prompt: p
        script: [ { text: x } ]
        options: { guideEnforcement: device, loopGuards: off, maxToolCalls: 5 }
      - { id: d, prompt: p, script: [ { text: x } ] }
    """
    let (suite, diagnostics) = SuiteLoader.load(text: text, file: "/tmp/s.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let cases = try #require(suite).expanded()
    let c = try #require(cases.first { $0.id == "s/c@v" }).settings
    #expect(c.contextSize == 2000 && c.imageTokens == 3 && !c.constrained && !c.includeSchemaInPrompt)
    #expect(c.stream && c.maxToolCalls == 5 && c.guideEnforcement == .device && c.loopGuards == LoopGuards.off)
    let bareText = "suite: t\nengine: scripted\ncases: [ { id: e, prompt: p, script: [ { text: x } ] } ]\n"
    let bare = SuiteLoader.load(text: bareText, file: "/tmp/t.yaml").suite
    #expect(try #require(bare).expanded().first?.settings == RunSettings())
}
