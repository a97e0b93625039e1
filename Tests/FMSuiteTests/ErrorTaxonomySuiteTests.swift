import FMCore
import Foundation
import Testing
@testable import FMSuite

private let head = "suite: x\ncases:\n  - id: a\n    prompt: hi\n    expect:\n"
private let scripted = "suite: x\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n"

/// Error names in `expect: { error: … }` and scripts are checked against the taxonomy at load time:
/// located, with did-you-mean and the Foundation Models 26 → 27 renames spelled out.
@Test(arguments: [
    (head + "      - error: exceededContextWindowSize\n", 6, 16,
     "'exceededContextWindowSize' is the Foundation Models 26 name; since 27 it is LanguageModelError.contextSizeExceeded: write 'contextSizeExceeded'"),
    (head + "      - error: { caseName: unsupportedGuide }\n", 6, 16,
     "'unsupportedGuide' is the Foundation Models 26 name; since 27 it is LanguageModelError.unsupportedGenerationGuide: write 'unsupportedGenerationGuide'"),
    (head + "      - error: decodingFailure\n", 6, 16,
     "'decodingFailure' is the Foundation Models 26 name; since 27 it is GeneratedContent.ParsingError: write 'parsingError'"),
    (head + "      - error: refusl\n", 6, 16, "unknown error name 'refusl'; did you mean 'refusal'?"),
    (head + "      - error: toolCallLimitExceded\n", 6, 16, "did you mean 'toolCallLimitExceeded'?"),
    (head + "      - not: { error: xyzzyplugh }\n", 6, 14, "unknown error name 'xyzzyplugh'; use one of contextSizeExceeded, "),
    (scripted + "    script: [ { error: exceededContextWindowSize } ]\n", 6, 13,
     "'exceededContextWindowSize' is the Foundation Models 26 name; since 27 it is LanguageModelError.contextSizeExceeded: write 'contextSizeExceeded'"),
    (scripted + "    script: [ { error: decodingFailure } ]\n", 6, 13,
     "since 27 it is GeneratedContent.ParsingError, which is not a LanguageModelError here; use one of contextSizeExceeded"),
    (scripted + "    script: [ { error: rateLimitd } ]\n", 6, 13, "unknown LanguageModelError 'rateLimitd'; did you mean 'rateLimited'?"),
] as [(String, Int, Int, String)])
func errorNamesAreCheckedAgainstTheTaxonomy(text: String, line: Int, column: Int, message: String) throws {
    try expectLocatedDiagnostic(text, message, line: line, column: column)
}

/// Every name an attempt can end in loads, the session's and parsingError included.
@Test func everyExpectableErrorNameLoads() {
    for name in ErrorTaxonomy.expectableNames {
        let (suite, diagnostics) = loadSuite(head + "      - error: \(name)\n")
        #expect(diagnostics.isEmpty, "\(name): \(diagnostics)")
        #expect(suite?.cases.first?.expect.isEmpty == false)
    }
}

/// Sampling takes Foundation Models' case names and today's spellings, to the same options.
@Test(arguments: [
    ("{ randomTopK: 40, seed: 7 }", GenerationOptions.SamplingMode.topK(40, seed: 7)),
    ("{ topK: 40, seed: 7 }", .topK(40, seed: 7)),
    ("{ randomProbabilityThreshold: 0.9 }", .nucleus(probabilityThreshold: 0.9, seed: nil)),
    ("{ probabilityThreshold: 0.9 }", .nucleus(probabilityThreshold: 0.9, seed: nil)),
] as [(String, GenerationOptions.SamplingMode)])
func samplingNamesFollowFoundationModels(sampling: String, mode: GenerationOptions.SamplingMode) throws {
    let (suite, diagnostics) = loadSuite("suite: x\noptions: { sampling: \(sampling) }\ncases:\n  - id: a\n    prompt: hi\n")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(suite?.options.generation.sampling == mode)
}

@Test func bothSpellingsOfOneSamplingSettingAreAnError() throws {
    try expectLocatedDiagnostic("suite: x\noptions: { sampling: { randomTopK: 4, topK: 4 } }\ncases:\n  - id: a\n    prompt: hi\n",
                                "topK is the older spelling of randomTopK; give one of them", line: 2, column: 45)
    try expectLocatedDiagnostic("suite: x\noptions: { sampling: { randomTopK: 0 } }\ncases:\n  - id: a\n    prompt: hi\n",
                                "randomTopK must be at least 1", line: 2, column: 36)
}

/// A temperature under greedy sampling loads with a warning at the key that set it, once per key.
@Test func temperatureUnderGreedySamplingWarnsAtTheKey() throws {
    let text = """
    suite: x
    options: { temperature: 0.7 }
    variants:
      - name: sampled
        options: { sampling: { randomTopK: 40 } }
      - name: plain
    cases:
      - id: a
        prompt: hi
      - id: b
        prompt: ho
        options: { sampling: greedy, temperature: 0.2 }
      - id: c
        prompt: hu
        options: { sampling: { randomProbabilityThreshold: 0.9 }, temperature: 0.5 }

    """
    let (suite, diagnostics, warnings) = SuiteLoader.read(text: text, file: "t.yaml")
    #expect(diagnostics.isEmpty && suite != nil, "\(diagnostics)")
    #expect(warnings.map { "\($0.location.line):\($0.location.column)" } == ["2:25", "12:47"])
    #expect(warnings.first?.warningDescription.hasPrefix("t.yaml:2:25: warning: temperature 0.7 has no effect under greedy sampling") == true)
    let folder = try makeFolder(["t.yaml": text, "quiet.yaml": "suite: q\ncases:\n  - id: a\n    prompt: hi\n"])
    let loaded = SuiteLoader.load(paths: [folder.path])
    #expect(loaded.diagnostics.isEmpty && loaded.suites.count == 2)
    #expect(loaded.warnings.count == 2)
}
