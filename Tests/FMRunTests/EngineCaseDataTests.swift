import FMCore
import FMEngines
import FMEvaluate
import Foundation
import Testing
@testable import FMRun
import FMSuite

/// Scripted cases (steps, attempts, and a scripted judge) whose definition hashes were recorded before the
/// script became engine data (`EngineCaseData`): `--resume` keeps their verdicts only if the hashes stay.
private let pinned = """
suite: hashpin
engine: scripted
tools:
  - name: lookup
    description: Look something up.
    arguments: { type: object, properties: { q: { type: string } }, required: [q] }
    output: found
cases:
  - id: steps
    prompt: Hi
    script: [ { toolCalls: [ { name: lookup, arguments: { q: x } } ] }, { text: hi, latencyMs: 1.5, outputTokens: 3 } ]
  - id: attempts
    prompt: Hi
    repeat: 2
    script: { attempts: [ [ { text: a } ], [ { error: rateLimited, message: slow } ] ] }
  - id: judged
    prompt: Hi
    script: [ { text: fine } ]
    expect:
      - judge: { engine: scripted, criteria: ok, script: [ { structure: { verdict: pass, reasoning: ok } } ] }
"""

private func loaded(_ yaml: String) throws -> [ExpandedCase] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("engine-data-\(UUID().uuidString).yaml")
    let (suite, diagnostics) = SuiteLoader.load(text: yaml, file: file.path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(suite).expanded()
}

@Test func scriptedCaseDefinitionHashesAreThoseOfTheReleasedForm() throws {
    let hashes = Dictionary(uniqueKeysWithValues: try loaded(pinned).map { ($0.caseID, CaseDefinition.hash(of: $0)) })
    #expect(hashes["steps"] == "v2:b7e426cb27bfa4eec66af6a83ba4a6893e472b734693c20d794461ef40dcb5aa")
    #expect(hashes["attempts"] == "v2:cd0101090edf564df72f54ab5f699e3050076159f616dd13e16dcf044090adc8")
    #expect(hashes["judged"] == "v2:7b920dab01b9f51dda989b66e1088566c66c9aff73507e4a710088451118d746")
}

@Test func theScriptReachesTheEngineAsItsOwnDecodedData() throws {
    let cases = try loaded(pinned)
    let steps = try #require(cases.first { $0.caseID == "steps" })
    #expect(steps.engineData.keys == [EngineScript.caseDataKey])
    let script = try #require(steps.engineData[EngineScript.caseDataKey] as? EngineScript)
    #expect(script.allSteps.count == 2)
    let judge = try #require(cases.first { $0.caseID == "judged" }?.expectations.flatMap(\.judgeEngines).first)
    #expect(judge.data[EngineScript.caseDataKey] is EngineScript)
    #expect(EngineResolution.judgeProblems([judge], caseEngine: "scripted").isEmpty)
    let stray = JudgeEngineChoice(name: EngineRegistry.defaultEngine, data: judge.data)
    #expect(EngineResolution.judgeProblems([stray], caseEngine: "scripted")
        == ["the judge's 'script:' is read only by the scripted engine; this judge runs on 'embedded' "
            + "(set engine: scripted, or drop the script)"])
}

@Test func engineDataProblemsAreReportedAtTheDataWithTheCase() throws {
    let yaml = """
    suite: bad
    engine: scripted
    cases:
      - id: two-turns
        turns: [ Hi, Again ]
        script:
          turns: [ [ { text: a } ] ]
      - id: unknown-tool
        prompt: Hi
        script: [ { toolCalls: [ { name: nowhere } ] }, { text: done } ]
      - id: bad-step
        prompt: Hi
        script: [ { text: a, error: rateLimited } ]
      - id: bad-field
        prompt: Hi
        script: [ { txt: a } ]
      - id: none
        prompt: Hi
    """
    let (_, diagnostics) = SuiteLoader.load(text: yaml, file: "bad.yaml")
    let lines = diagnostics.map(\.description)
    func reported(_ prefix: String, _ text: String) -> Bool {
        lines.contains { $0.hasPrefix(prefix) && $0.contains(text) }
    }
    #expect(reported("bad.yaml:7:", "case 'two-turns' script has 1 turn list but the case has 2 turns"), "\(lines)")
    #expect(reported("bad.yaml:10:", "script calls tool 'nowhere', which the suite does not define"))
    #expect(reported("bad.yaml:13:", "script: a script step needs exactly one of"))
    #expect(reported("bad.yaml:16:", "txt"))
    #expect(reported("bad.yaml:", "case 'none' runs on the scripted engine but has no 'script:' "
        + "(the responses to play back)"))
    #expect(!lines.contains { $0.contains("case 'bad-field' runs on the scripted engine but has no") }, "\(lines)")
}
