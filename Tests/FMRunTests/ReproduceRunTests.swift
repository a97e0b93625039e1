import Foundation
import Testing
import FMCore
import FMEngines
import FMEvaluate
import FMResults
import FMRun
import FMSuite

/// The prompt text the attempt's transcript holds (the wording the session was given).
private func promptText(_ attempt: AttemptResult) -> String? {
    for entry in attempt.transcript.entries {
        if case .prompt(let prompt) = entry {
            for segment in prompt.segments { if case .text(let text) = segment { return text.content } }
        }
    }
    return nil
}

private let reproduceSuite = """
suite: r
engine: scripted
cases:
  - id: bug
    prompt: Say hi
    reproduce: { seeds: [5, 9], paraphrases: [Greet me] }
    script:
      attempts:
        - [ { text: hello } ]
        - [ { text: bye } ]
    expect: { contains: hello }
    knownIssue: { reason: says bye, url: 'https://example.com/issues/2' }
  - id: plain
    prompt: Say hi
    script: [ { text: hello } ]
    expect: { contains: hello }
"""

@Test func eachAttemptRunsItsWordingAndRecordsItsSeed() throws {
    let results = try scriptedRunner(RunnerOptions(repeatOverride: 3)).run(try cases(reproduceSuite))
    let bug = try #require(results.first { $0.caseID == "bug" })
    #expect(bug.attempts.count == 4, "a reproduce case runs its trials; --repeat applies to the other cases")
    #expect(bug.attempts.map(\.seed) == [5, 9, 5, 9])
    #expect(bug.attempts.map(\.paraphrase) == [0, 0, 1, 1])
    #expect(bug.attempts.map(promptText) == ["Say hi", "Say hi", "Greet me", "Greet me"])
    #expect(bug.attempts.map(\.status) == [.passed, .failed, .passed, .failed])
    #expect(bug.status == .knownIssue)
    let reproduction = try #require(bug.reproduction)
    #expect(reproduction.trials == 4 && reproduction.reproduced == 2)
    #expect(abs(reproduction.lower - 0.1500) < 1e-4 && abs(reproduction.upper - 0.8500) < 1e-4)
    let plain = try #require(results.first { $0.caseID == "plain" })
    #expect(plain.attempts.count == 3)
    #expect(plain.reproduction == nil && plain.attempts.allSatisfy { $0.seed == nil && $0.paraphrase == nil })
}

@Test func aKnownIssueThatReproducesNoLongerFailsTheRunAndZeroOfNAnnouncesTheFix() throws {
    let fixed = reproduceSuite.replacingOccurrences(of: "- [ { text: bye } ]", with: "- [ { text: hello again } ]")
    let results = try scriptedRunner().run(try cases(fixed))
    let bug = try #require(results.first { $0.caseID == "bug" })
    #expect(bug.reproduction?.reproduced == 0 && bug.reproduction?.trials == 4)
    #expect(bug.status == .failed && bug.gateHolds)
    #expect(bug.reason.hasPrefix("known issue no longer reproduces"))
    #expect(bug.failsRun)
}

@Test func seededTrialsAreRerunWithTheirSeedUnderCheckDeterminism() throws {
    // The scripted engine plays attempt scripts by engine attempt number: reruns (engine attempts 4…7)
    // replay the same cycle, so nothing diverges; with three scripts the cycle shifts and attempt 0 diverges.
    let results = try scriptedRunner(RunnerOptions(checkDeterminism: true)).run(try cases(reproduceSuite))
    #expect(results.first { $0.caseID == "bug" }?.determinism?.diverged == false)
    let shifted = reproduceSuite.replacingOccurrences(of: "        - [ { text: bye } ]\n", with: "        - [ { text: bye } ]\n        - [ { text: bye } ]\n")
    let rerun = try scriptedRunner(RunnerOptions(checkDeterminism: true)).run(try cases(shifted))
    let determinism = try #require(rerun.first { $0.caseID == "bug" }?.determinism)
    #expect(determinism.diverged && determinism.attempt == 0)
    #expect(determinism.detail?.hasPrefix("seeded attempt 0 (seed 5) diverged on rerun") == true, "\(determinism.detail ?? "")")
}

@Test func olderResultsWithoutReproductionStillLoad() throws {
    let result = try scriptedRunner().run(try cases(reproduceSuite)).first { $0.caseID == "bug" }!
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(result)) as? [String: Any])
    object["reproduction"] = nil
    object["origin"] = nil
    var attempts = try #require(object["attempts"] as? [[String: Any]])
    for index in attempts.indices { attempts[index]["seed"] = nil; attempts[index]["paraphrase"] = nil }
    object["attempts"] = attempts
    let decoded = try JSONDecoder().decode(CaseResult.self, from: JSONSerialization.data(withJSONObject: object))
    #expect(decoded.reproduction == nil && decoded.attempts.allSatisfy { $0.seed == nil })
    let roundTrip = try JSONDecoder().decode(CaseResult.self, from: encoder.encode(result))
    #expect(roundTrip.reproduction == result.reproduction && roundTrip.attempts.map(\.seed) == [5, 9, 5, 9])
}
