import Foundation
import Testing
import FMCore
import FMEngines
import FMEvaluate
import FMResults
import FMRun
import FMSuite

private let classification = """
suite: sentiment
engine: scripted
generating: { enum: [positive, negative, neutral] }
cases:
  - { id: a, prompt: Great, script: [ { structure: positive } ], expect: { equals: positive } }
  - { id: b, prompt: Awful, script: [ { structure: neutral } ], expect: { equals: negative } }
  - { id: c, prompt: Fine, repeat: 2, script: { attempts: [ [ { structure: neutral } ], [ { text: "\\"maybe\\"" } ] ] }, expect: { equals: neutral } }
"""

@Test func parallelJobsRunEveryCaseOnceAndReportProgressInOrder() throws {
    let items = try cases(classification)
    let finished = Locked<[Int]>([])
    let results = try scriptedRunner(RunnerOptions(jobs: 3)).run(items) { _, done, total in
        #expect(total == 3)
        finished.withLock { $0.append(done) }
    }
    #expect(finished.withLock { $0 } == [1, 2, 3])
    #expect(Set(results.map(\.caseID)) == ["a", "b", "c"])
}

@Test func classificationSummaryCountsEveryAttemptIncludingOutOfEnum() throws {
    let items = try cases(classification)
    let results = try scriptedRunner().run(items)
    #expect(results.first { $0.caseID == "a" }?.expectedLabel == "positive")
    let summary = try #require(Runner.classifications(of: items, results: results).first).summary
    #expect(summary.total == 4)
    #expect(summary.count(expected: "positive", predicted: "positive") == 1)
    #expect(summary.count(expected: "negative", predicted: "neutral") == 1)
    #expect(summary.count(expected: "neutral", predicted: ClassificationSummary.outOfEnum) == 1)
    #expect(summary.outOfEnumRate == 0.25)
}

@Test func repeatOverrideAndDeterminismReruns() throws {
    let items = try cases(classification)
    let results = try scriptedRunner(RunnerOptions(repeatOverride: 2, checkDeterminism: true)).run(items)
    for result in results { #expect(result.attempts.count == 2) }
    let c = try #require(results.first { $0.caseID == "c" })
    #expect(c.status == .failed)
    // Attempts 0 and 1 replay as attempts 2 and 3: the `attempts:` cycle repeats, so nothing diverges.
    #expect(c.determinism?.diverged == false)
    // One attempt: its rerun is attempt 1 of the cycle, which answers differently.
    let single = try scriptedRunner(RunnerOptions(repeatOverride: 1, checkDeterminism: true)).run(items)
    #expect(single.first { $0.caseID == "c" }?.determinism?.diverged == true)
    #expect(single.first { $0.caseID == "a" }?.determinism?.diverged == false)
}

@Test func sampledCasesAreNotCheckedForDeterminism() throws {
    let items = try cases("""
    suite: s
    engine: scripted
    options: { sampling: { topK: 5, seed: 1 } }
    cases:
      - { id: x, prompt: hi, script: [ { text: hi } ], expect: { contains: hi } }
    """)
    let results = try scriptedRunner(RunnerOptions(checkDeterminism: true)).run(items)
    #expect(results.first?.determinism == nil)
}

@Test func exitCodesFollowTheSummary() throws {
    let items = try cases(classification)
    let results = try scriptedRunner().run(items)
    let failing = RunResult(run: runInfo(), cases: results)
    #expect(failing.exitCode == 1)
    let passing = RunResult(run: runInfo(), cases: results.filter { $0.caseID == "a" })
    #expect(passing.exitCode == 0)
    var errored = results.filter { $0.caseID == "a" }
    errored[0].attempts[0].status = .error
    let recomputed = CaseResult(id: errored[0].id, suite: "s", caseID: "a", attempts: errored[0].attempts, durationMs: 0)
    #expect(recomputed.status == .error)
    #expect(RunResult(run: runInfo(), cases: [recomputed]).exitCode == 3)
    var diverged = results.filter { $0.caseID == "a" }
    diverged[0].determinism = DeterminismResult(diverged: true, attempt: 0)
    #expect(RunResult(run: runInfo(), cases: diverged).exitCode == 1)
}
