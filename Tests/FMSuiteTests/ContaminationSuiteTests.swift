import FMCore
import Foundation
import Testing
import TestSupport
@testable import FMSuite

/// `contamination: N` gives a case the first prompts of the N cases before it under its variant, in order,
/// counting on from the suite's end for the first ones, never the case itself.
@Test func priorPromptsAreTheCasesBeforeUnderTheSameVariant() throws {
    let (suite, diagnostics) = SuiteLoader.load(text: """
    suite: s
    variants: [ { name: a }, { name: b, prompt: "B: {{prompt}}" } ]
    options: { contamination: 2 }
    cases:
      - { id: one, prompt: first }
      - { id: two, turns: [second, again] }
      - { id: three, prompt: third }
    """, file: "/tmp/s.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let byID = Dictionary(uniqueKeysWithValues: try #require(suite).expanded().map { ($0.id, $0.priorPrompts) })
    #expect(byID["s/three@a"] == [PriorPrompt(caseID: "s/one@a", prompt: "first"),
                                  PriorPrompt(caseID: "s/two@a", prompt: "second")])
    #expect(byID["s/one@b"] == [PriorPrompt(caseID: "s/two@b", prompt: "B: second"),
                                PriorPrompt(caseID: "s/three@b", prompt: "B: third")], "counting on from the end")
    #expect(byID["s/two@a"]?.map(\.caseID) == ["s/three@a", "s/one@a"])
}

/// A count beyond the other cases takes them all; without the option a case has none, and its definition
/// (hence its hash) does not mention them.
@Test func priorPromptsStopAtTheOtherCasesAndStayOutOfPlainDefinitions() throws {
    let (suite, _) = SuiteLoader.load(text: """
    suite: s
    cases:
      - { id: one, prompt: first }
      - { id: two, prompt: second, options: { contamination: 16 } }
    """, file: "/tmp/s.yaml")
    let cases = try #require(suite).expanded()
    #expect(cases[1].priorPrompts.map(\.caseID) == ["s/one"])
    #expect(cases[0].priorPrompts.isEmpty)
    let plain = String(decoding: try JSONEncoder().encode(cases[0]), as: UTF8.self)
    #expect(!plain.contains("priorPrompts") && !plain.contains("contamination"))
}

/// The check needs other cases, a model to answer them and no images on the first prompt.
@Test func contaminationIsRefusedWhereItCannotRun() throws {
    let folder = try makeFolder(["s.yaml": """
    suite: s
    engine: scripted
    options: { contamination: 1 }
    cases:
      - { id: scripted, prompt: p, script: [ { text: x } ] }
    """, "t.yaml": """
    suite: t
    cases:
      - { id: alone, prompt: p, options: { contamination: 3 } }
    """, "u.yaml": """
    suite: u
    cases:
      - { id: before, prompt: p }
      - { id: picture, prompt: p, images: [ { file: a.png } ], options: { contamination: 1 } }
    """])
    try onePixelPNG.write(to: folder.appendingPathComponent("a.png"))
    let loaded = SuiteLoader.load(paths: [folder.path])
    let messages = loaded.diagnostics.map(\.description)
    #expect(messages.count == 4, "\(messages)")
    #expect(messages.contains { $0.hasSuffix("s.yaml:5:5: error: case 's/scripted' carries script for its engine, "
        + "which plays only the case's own turns; contamination needs a model that answers the earlier cases' "
        + "prompts") })
    #expect(messages.contains { $0.hasSuffix("s.yaml:5:5: error: case 's/scripted' is the only case of its suite, so "
        + "contamination: 1 has no earlier case to answer first; add cases or drop the option") })
    #expect(messages.contains { $0.hasSuffix("t.yaml:3:5: error: case 't/alone' is the only case of its suite, so "
        + "contamination: 3 has no earlier case to answer first; add cases or drop the option") })
    #expect(messages.contains { $0.hasSuffix("u.yaml:4:5: error: case 'u/picture' attaches images to its first "
        + "prompt, which a reused session cannot keep first; drop contamination or the images") })
}
