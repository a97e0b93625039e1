import Foundation
import Testing
import FMCore
import FMEngines
import FMResults
import FMRun
import FMSession
import FMSuite

/// The scripted provider, counting the sessions it hands out (each is one attempt sent to the engine).
private final class CountingProvider: EngineProvider, @unchecked Sendable {
    // @unchecked Sendable: `calls` is only touched under its `Locked`; `inner` is immutable.
    let inner: EngineProvider
    let calls = Locked(0)
    let deterministic: Bool

    init(deterministic: Bool = true) throws {
        inner = try EngineRegistry.provider(for: EngineConfiguration(name: "scripted"))
        self.deterministic = deterministic
    }

    var identity: EngineIdentity { inner.identity }

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        calls.withLock { $0 += 1 }
        return try inner.engine(for: attempt)
    }

    func reuseKey(for attempt: AttemptContext) -> String? { deterministic ? inner.reuseKey(for: attempt) : nil }
}

private func run(_ yaml: String, _ options: RunnerOptions = RunnerOptions(), deterministic: Bool = true) throws -> (results: [CaseResult], calls: Int) {
    let provider = try CountingProvider(deterministic: deterministic)
    let results = try Runner(options: options, provider: { _ in provider }).run(try cases(yaml))
    return (results, provider.calls.withLock { $0 })
}

private let greedyRepeats = """
suite: s
engine: scripted
generating: { enum: [yes, no] }
cases:
  - { id: same, prompt: Sure?, repeat: 3, script: [ { structure: "yes" } ], expect: { equals: "yes" } }
  - { id: cycle, prompt: Sure?, repeat: 4, script: { attempts: [ [ { structure: "yes" } ], [ { structure: "no" } ] ] }, expect: { equals: "yes" } }
"""

@Test func identicalGreedyRepeatsAreAnsweredFromTheFirstAndMarked() throws {
    let (results, calls) = try run(greedyRepeats)
    let same = try #require(results.first { $0.caseID == "same" })
    #expect(same.attempts.map(\.reusedFrom) == [nil, 0, 0])
    #expect(same.attempts.map { $0.output?.stringValue } == ["yes", "yes", "yes"])
    #expect(same.attempts.allSatisfy { $0.status == .passed })
    // The `attempts:` cycle answers attempts 0 and 2 with one script, 1 and 3 with the other.
    let cycle = try #require(results.first { $0.caseID == "cycle" })
    #expect(cycle.attempts.map(\.reusedFrom) == [nil, nil, 0, 1])
    #expect(cycle.attempts.map { $0.output?.stringValue } == ["yes", "no", "yes", "no"])
    #expect(cycle.passes == 2)
    #expect(calls == 1 + 2)
    let summary = RunResult(run: runInfo(), cases: results).summary
    #expect(summary.attempts == 7)
    #expect(summary.reusedAttempts == 4)
}

@Test func reuseGivesTheSameResultsAsRecomputing() throws {
    let reused = try run(greedyRepeats).results
    var options = RunnerOptions()
    options.reuseRepeats = false
    let (recomputed, calls) = try run(greedyRepeats, options)
    #expect(calls == 7)
    #expect(recomputed.flatMap(\.attempts).allSatisfy { $0.reusedFrom == nil })
    #expect(RunThroughput.answersDigest(reused) == RunThroughput.answersDigest(recomputed))
    #expect(reused.map(\.status) == recomputed.map(\.status))
}

@Test func nothingIsReusedOnAnEngineThatDoesNotDeclareItselfDeterministic() throws {
    let (results, calls) = try run(greedyRepeats, deterministic: false)
    #expect(calls == 7)
    #expect(results.flatMap(\.attempts).allSatisfy { $0.reusedFrom == nil })
}

@Test func sampledAttemptsAndCommandToolsAreNeverReused() throws {
    let (results, calls) = try run("""
    suite: s
    engine: scripted
    tools:
      - name: lookup
        description: Looks something up.
        output: { command: [/bin/echo, found] }
    cases:
      - { id: tool, prompt: Look it up., repeat: 2, script: [ { text: done } ] }
    """)
    #expect(calls == 2)
    #expect(results.flatMap(\.attempts).allSatisfy { $0.reusedFrom == nil })
    let sampled = try run("""
    suite: s
    engine: scripted
    options: { sampling: { randomTopK: 5, seed: 1 } }
    cases:
      - { id: sampled, prompt: Hi, repeat: 3, script: [ { text: hello } ] }
    """)
    #expect(sampled.calls == 3)
    #expect(sampled.results.flatMap(\.attempts).allSatisfy { $0.reusedFrom == nil })
}

@Test func staticToolOutputsAreReused() throws {
    let (results, calls) = try run("""
    suite: s
    engine: scripted
    tools:
      - name: lookup
        description: Looks something up.
        outputs:
          - when: { q: a }
            output: found a
          - output: nothing
    cases:
      - id: tool
        prompt: Look it up.
        repeat: 2
        script: [ { toolCalls: [ { name: lookup, arguments: { q: a } } ] }, { text: done } ]
    """)
    #expect(calls == 1)
    #expect(results[0].attempts.map(\.reusedFrom) == [nil, 0])
    #expect(results[0].attempts[1].transcript == results[0].attempts[0].transcript)
}

@Test func infrastructureErrorsAreNotReused() throws {
    let (results, calls) = try run("""
    suite: s
    engine: scripted
    cases:
      - { id: down, prompt: Hi, repeat: 2, script: [ { error: unsupportedCapability } ] }
    """, RunnerOptions(retry: .none))
    #expect(calls == 2)
    #expect(results[0].attempts.allSatisfy { $0.reusedFrom == nil && $0.status == .error })
}

@Test func checkDeterminismStillRecomputesEveryAttempt() throws {
    let (results, calls) = try run(greedyRepeats, RunnerOptions(checkDeterminism: true))
    // First pass: 1 + 2 engine attempts (the rest reused); the reruns: every attempt, 3 + 4.
    #expect(calls == 3 + 7)
    #expect(results.allSatisfy { $0.determinism?.diverged == false })
}
