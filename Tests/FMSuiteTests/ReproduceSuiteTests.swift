import Foundation
import Testing
import FMCore
import FMEvaluate
@testable import FMSuite

/// Every `reproduce:`, `source:` and `reproducedWith:` problem, each at its line:column.
@Test(arguments: [
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seedz: 3 }\n", 5, 18, "unknown key 'seedz'; did you mean 'seeds'? (in reproduce)"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: {}\n", 5, 16, "reproduce needs 'seeds'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 0 }\n", 5, 25, "reproduce.seeds must be between 1 and 1000, not 0"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: [3, -1] }\n", 5, 29, "each seed of reproduce.seeds must be a non-negative integer, not -1"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: [3, 3] }\n", 5, 29, "seed 3 appears twice"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: [] }\n", 5, 25, "reproduce.seeds must be seeds N"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { paraphrases: [hello], temperature: 0.5 }\n", 5, 53, "reproduce.temperature applies to seeded attempts, but there are no 'seeds'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 2, temperature: -1 }\n", 5, 41, "reproduce.temperature must be ≥ 0"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 2, sampling: greedy }\n", 5, 38, "for greedy attempts leave out 'seeds'"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 2, sampling: { randomTopK: 5, seed: 9 } }\n", 5, 61, "reproduce.sampling gives seed 9; the seeds come from reproduce.seeds"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 2, sampling: { randomTopK: 0 } }\n", 5, 52, "randomTopK must be at least 1"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { paraphrases: [] }\n", 5, 31, "reproduce.paraphrases must be a non-empty list"),
    ("suite: x\ncases:\n  - id: a\n    prompt: hi\n    repeat: 3\n    reproduce: { seeds: 2 }\n", 6, 16, "case 'a' has both 'reproduce' and 'repeat'"),
    ("suite: x\ncases:\n  - id: a\n    turns: [hi, again]\n    reproduce: { paraphrases: [hello] }\n", 5, 31, "paraphrases reword a single 'prompt'"),
    ("suite: x\ndefaults: { repeat: 2, reproduce: { seeds: 2 } }\ncases:\n  - id: a\n    prompt: hi\n", 2, 35, "defaults has both 'reproduce' and 'repeat'"),
    ("suite: x\ndefaults: { reproduce: { paraphrases: [hello] } }\ncases:\n  - id: a\n    turns: [hi, again]\n", 4, 5, "defaults.reproduce gives paraphrases"),
    ("suite: x\nreproducedWith: modle\ncases:\n  - id: a\n    prompt: hi\n", 2, 17, "unknown reproducedWith 'modle'; did you mean 'model'?"),
    ("suite: x\nreproducedWith: recorded\ncases:\n  - id: a\n    prompt: hi\n", 2, 17, "reproducedWith: recorded, but the suite has no 'transcripts'"),
    ("suite: x\nreproducedWith: scripted\ncases:\n  - id: a\n    prompt: hi\n", 2, 17, "no variant runs on the scripted engine"),
    ("suite: x\nsource: { url: 'ftp://e.com/1' }\ncases:\n  - id: a\n    prompt: hi\n", 2, 16, "source url 'ftp://e.com/1' must be an http or https link"),
    ("suite: x\nsource: { titel: t }\ncases:\n  - id: a\n    prompt: hi\n", 2, 11, "unknown key 'titel'; did you mean 'title'? (in source)"),
    ("suite: x\nsource: {}\ncases:\n  - id: a\n    prompt: hi\n", 2, 9, "source needs a 'url'"),
    ("suite: x\nsumary: s\ncases:\n  - id: a\n    prompt: hi\n", 2, 1, "did you mean 'summary'?"),
] as [(String, Int, Int, String)])
func reproduceErrorsAreLocated(text: String, line: Int, column: Int, message: String) throws {
    try expectLocatedDiagnostic(text, message, line: line, column: column)
}

@Test func trialsAreWordingsTimesSeedsWithSeededOptions() throws {
    let text = """
    suite: r
    source: { url: 'https://example.com/thread/1', title: The report }
    reproducedWith: model
    summary: |
      What was reported.
    variants:
      - name: grammar
      - name: prompt
        prompt: "Answer: {{prompt}}"
        options: { constrained: false }
    cases:
      - id: seeded
        prompt: What's the weather in Beijing?
        reproduce:
          seeds: [3, 17]
          paraphrases: [Beijing weather today?]
      - id: nucleus
        prompt: hi
        reproduce: { seeds: 2, temperature: 1.2, sampling: { randomProbabilityThreshold: 0.9 } }
      - id: greedy
        prompt: hi
        reproduce: { paraphrases: [hello, hey] }
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let loaded = try #require(suite)
    #expect(loaded.origin == SuiteOrigin(url: "https://example.com/thread/1", title: "The report", reproducedWith: .model, summary: "What was reported.\n"))
    let cases = loaded.expanded()
    let seeded = try #require(cases.first { $0.id == "r/seeded@prompt" })
    #expect(seeded.repeatCount == 4)
    #expect((0..<4).map { seeded.trial($0) } == [Trial(paraphrase: 0, seed: 3), Trial(paraphrase: 0, seed: 17),
                                                 Trial(paraphrase: 1, seed: 3), Trial(paraphrase: 1, seed: 17)])
    #expect(seeded.prompt(ofAttempt: 1) == "Answer: What's the weather in Beijing?")
    #expect(seeded.prompt(ofAttempt: 2) == "Answer: Beijing weather today?", "the variant's template applies to every wording")
    #expect(seeded.options(ofAttempt: 3).sampling == .topK(40, seed: 17))
    #expect(seeded.options(ofAttempt: 3).temperature == 0.7)
    #expect(seeded.options.sampling == .greedy, "the case's own options stay greedy")
    let nucleus = try #require(cases.first { $0.id == "r/nucleus@grammar" })
    #expect(nucleus.repeatCount == 2)
    #expect(nucleus.options(ofAttempt: 1).sampling == .nucleus(probabilityThreshold: 0.9, seed: 2))
    #expect(nucleus.options(ofAttempt: 1).temperature == 1.2)
    let greedy = try #require(cases.first { $0.id == "r/greedy@grammar" })
    #expect(greedy.repeatCount == 3)
    #expect((0..<3).map { greedy.options(ofAttempt: $0).sampling } == [.greedy, .greedy, .greedy])
    #expect((0..<3).map { greedy.prompt(ofAttempt: $0) } == ["hi", "hello", "hey"])
}

@Test func defaultsReproduceAppliesUnlessTheCaseRepeatsOrReproducesItself() throws {
    let text = """
    suite: d
    defaults: { reproduce: { seeds: 4 } }
    cases:
      - { id: inherits, prompt: hi }
      - { id: repeats, prompt: hi, repeat: 2 }
      - { id: own, prompt: hi, reproduce: { paraphrases: [hello] } }
    """
    let (suite, diagnostics) = loadSuite(text)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let cases = try #require(suite).expanded()
    #expect(cases.map(\.repeatCount) == [4, 2, 2])
    #expect(cases.map { $0.reproduce != nil } == [true, false, true])
}

@Test func gateBoundsAreCheckedAgainstTheTrials() throws {
    let text = "suite: g\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: 2, paraphrases: [hello] }\n    gate: { minPasses: 4 }\n"
    #expect(loadSuite(text).diagnostics.isEmpty, "4 attempts allow minPasses 4: \(loadSuite(text).diagnostics)")
    let over = text.replacingOccurrences(of: "minPasses: 4", with: "minPasses: 5")
    #expect(!loadSuite(over).diagnostics.isEmpty, "5 passes out of 4 attempts is an error")
}

@Test func aForumLibrarySuiteNeedsItsSource() throws {
    let text = "suite: f\ncases:\n  - id: a\n    prompt: hi\n"
    let folder = try makeFolder(["suites/forum/f.yaml": text, "suites/other/f.yaml": text])
    let forum = SuiteLoader.load(file: folder.appendingPathComponent("suites/forum/f.yaml").path)
    #expect(forum.diagnostics.contains { $0.message.contains("a suite under suites/forum/ needs a 'source'") && $0.location.line == 1 })
    #expect(SuiteLoader.load(file: folder.appendingPathComponent("suites/other/f.yaml").path).diagnostics.isEmpty)
    let titled = "suite: f\nsource: Tool arguments renamed\ncases:\n  - id: a\n    prompt: hi\n"
    let loaded = SuiteLoader.load(text: titled, file: folder.appendingPathComponent("suites/forum/g.yaml").path)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    #expect(loaded.suite?.origin == SuiteOrigin(title: "Tool arguments renamed"))
}

@Test func reproduceIsPartOfTheEncodedDefinitionAndTheOriginIsShown() throws {
    let plain = "suite: h\ncases:\n  - id: a\n    prompt: hi\n"
    let seeded = "suite: h\nsource: 'https://example.com/t/1'\ncases:\n  - id: a\n    prompt: hi\n    reproduce: { seeds: [5] }\n"
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let before = try #require(loadSuite(plain).suite).expanded()[0]
    let after = try #require(loadSuite(seeded).suite).expanded()[0]
    let plainJSON = String(decoding: try encoder.encode(before), as: UTF8.self)
    let seededJSON = String(decoding: try encoder.encode(after), as: UTF8.self)
    #expect(!plainJSON.contains("reproduce") && !plainJSON.contains("origin"), "cases without the keys encode as before")
    #expect(seededJSON.contains(#""reproduce":{"paraphrases":[],"sampling":{"topK":40},"seeds":[5],"temperature":0.7,"trials":1}"#), "\(seededJSON)")
    #expect(seededJSON.contains(#""origin":{"url":"https://example.com/t/1"}"#), "\(seededJSON)")
}
