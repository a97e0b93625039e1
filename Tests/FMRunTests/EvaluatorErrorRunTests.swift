import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults
import FMRun

/// An evaluator that cannot give a verdict makes the attempt an `error` (exit 3), never a model failure.
@Test func anEvaluatorThatCannotRunMakesTheAttemptAnError() throws {
    let results = try scriptedRunner().run(try cases("""
    suite: s
    engine: scripted
    cases:
      - { id: missing, prompt: hi, script: [ { text: hello } ], expect: { command: [fmeval-no-such-evaluator-xyz] } }
      - { id: crashes, prompt: hi, script: [ { text: hello } ], expect: { not: { command: [sh, -c, "kill -SEGV $$"] } } }
      - { id: hangs, prompt: hi, script: [ { text: hello } ], expect: { command: { argv: [sleep, "5"], timeoutSeconds: 0.3 } } }
      - { id: judges, prompt: hi, script: [ { text: hello } ], expect: { judge: { criteria: polite } } }
      - { id: says-failing, prompt: hi, script: [ { text: hello } ], expect: { command: [sh, -c, "cat >/dev/null; echo '{\\"value\\":\\"failing\\"}'"] } }
    """))
    let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.caseID, $0) })
    for id in ["missing", "crashes", "hangs", "judges"] {
        let result = try #require(byID[id])
        #expect(result.status == .error, "\(id): \(result.reason)")
        let error = try #require(result.attempts.first?.error)
        #expect(error.domain == "EvaluatorError" && error.caseName == "evaluatorFailed", "\(id): \(error)")
    }
    #expect(byID["missing"]?.attempts.first?.error?.message.contains("not found") == true)
    #expect(byID["hangs"]?.attempts.first?.error?.message.contains("did not finish within 0.3 s") == true)
    #expect(byID["says-failing"]?.status == .failed, "a verdict the evaluator gave is the model's result")
    #expect(RunResult(run: runInfo(), cases: results).exitCode == 3)
}

@Test func anEvaluatorThatCrashesSometimesCannotMakeACaseFlaky() throws {
    let flip = FileManager.default.temporaryDirectory.appendingPathComponent("flip-\(UUID().uuidString)").path
    let script = "cat >/dev/null; if [ -e '\(flip)' ]; then rm '\(flip)'; kill -SEGV $$; else touch '\(flip)'; echo '{\\\"value\\\":\\\"passing\\\"}'; fi"
    let results = try scriptedRunner().run(try cases("""
    suite: s
    engine: scripted
    cases:
      - id: sometimes
        prompt: hi
        repeat: 4
        gate: { minPassRate: 0.5 }
        script: [ { text: hello } ]
        expect: { command: [sh, -c, "\(script)"] }
    """))
    try? FileManager.default.removeItem(atPath: flip)
    let result = try #require(results.first)
    #expect(result.attempts.map(\.status) == [.passed, .error, .passed, .error])
    #expect(result.status == .error, "\(result.reason)")
}
