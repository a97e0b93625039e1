import Foundation
import Testing
import FMCore
import FMEngines
import FMSession
import FMResults
import FMRun

/// A backend that runs its own tool loop (as Apple's session or a server-side agent would): it calls
/// the first tool once with the prompt as `q`, answers with the tool's canned output, and writes the
/// transcript itself. Its first `failures` sessions end in `failure` after the prompt entry.
final class AgentLoopProvider: EngineProvider, @unchecked Sendable {
    let identity = EngineIdentity(name: "agent-loop", model: "test")
    private let lock = NSLock()
    private var failuresLeft: Int
    private let failure: Error
    private(set) var plans: [SessionPlan] = []

    init(failures: Int = 0, failure: Error = LanguageModelError.rateLimited(.init(debugDescription: "busy"))) {
        self.failuresLeft = failures
        self.failure = failure
    }

    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        throw ScriptError(message: "the agent-loop backend has no engine; it drives its own sessions")
    }

    func sessionDriver(for attempt: AttemptContext) throws -> SessionDriver {
        lock.withLock { () -> SessionDriver in
            let fails = failuresLeft > 0
            failuresLeft -= fails ? 1 : 0
            return AgentLoopDriver(failure: fails ? failure : nil, record: { plan in self.lock.withLock { self.plans.append(plan) } })
        }
    }
}

/// The driver `AgentLoopProvider` hands out.
struct AgentLoopDriver: SessionDriver {
    let failure: Error?
    let record: (SessionPlan) -> Void

    func run(_ plan: SessionPlan) throws -> SessionRecord {
        record(plan)
        let configuration = plan.configuration
        var entries: [Transcript.Entry] = [.instructions(.init(id: "i", segments: configuration.instructions.map { [.text(.init(id: "i0", content: $0))] } ?? [],
                                                                toolDefinitions: configuration.tools.map(\.definition)))]
        var record = SessionRecord()
        for (turn, prompt) in plan.turns.enumerated() {
            entries.append(.prompt(.init(id: "p\(turn)", segments: [.text(.init(id: "p\(turn)s", content: prompt))], options: configuration.options)))
            if let failure {
                record.transcript = Transcript(entries: entries)
                record.turns.append(TurnStats())
                record.turnOffsetsMs.append(0)
                throw SessionDriverFailure(failure, partial: record)
            }
            var stats = TurnStats()
            var answer = "no tools"
            if let tool = configuration.tools.first {
                let call = ToolCall(id: "c\(turn)", name: tool.definition.name, arguments: GeneratedContent(properties: [("q", GeneratedContent(prompt))]))
                guard case .text(let output) = tool.output else { throw ScriptError(message: "only canned tool outputs") }
                entries.append(.toolCalls(.init(id: "t\(turn)", calls: [call])))
                entries.append(.toolOutput(.init(id: "o\(turn)", toolName: call.name, toolCallID: call.id, segments: [.text(.init(id: "o\(turn)s", content: output))])))
                stats.toolCalls = 1
                answer = output
            }
            entries.append(.response(.init(id: "r\(turn)", segments: [.text(.init(id: "r\(turn)s", content: answer))])))
            stats.engineCalls = 2
            stats.usage = Usage(inputTokens: 10, outputTokens: 3)
            record.turns.append(stats)
            record.turnOffsetsMs.append(Double(turn))
            record.text = answer
        }
        record.transcript = Transcript(entries: entries)
        return record
    }
}

private let agentSuite = """
suite: agent
tools:
  - { name: lookup, description: Looks up., arguments: { type: object, properties: { q: { type: string } } }, output: Paris }
cases:
  - id: capital
    instructions: Answer with the capital.
    turns: [ "capital of France", "and again" ]
    expect:
      - equals: Paris
      - toolCalls: { ordered: [ { name: lookup, arguments: { q: { hasPrefix: capital } } }, lookup ], allowsAdditionalToolCalls: false }
      - usage: { maxInputTokens: 20 }
  - id: wrong-tool-argument
    prompt: capital of Spain
    expect: { toolCalls: { ordered: [ { name: lookup, arguments: { q: Madrid } } ] } }
"""

@Test func aDriverThatOwnsItsToolLoopIsScoredByTheSameEvaluators() throws {
    let provider = AgentLoopProvider()
    let results = try Runner(options: RunnerOptions(retry: .none), provider: { _ in provider }).run(try cases(agentSuite))
    let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.caseID, $0) })
    let capital = try #require(byID["capital"]?.attempts.first)
    #expect(capital.status == .passed, "\(capital.metrics)")
    #expect(capital.text == "Paris" && capital.engineCalls == 4 && capital.usage.inputTokens == 20)
    #expect(capital.transcript.entries.count == 9, "the driver's own transcript is what is recorded")
    #expect(capital.metrics.map(\.name).contains { $0.hasPrefix("toolCalls") })
    let wrong = try #require(byID["wrong-tool-argument"])
    #expect(wrong.status == .failed, "the trajectory evaluator judged the driver's transcript: \(wrong.reason)")
    let plan = try #require(provider.plans.first { $0.turns.count == 2 })
    #expect(plan.turns == ["capital of France", "and again"])
    #expect(plan.configuration.instructions == "Answer with the capital.")
    #expect(plan.configuration.tools.map(\.definition.name) == ["lookup"])
}

@Test func aDriversRetryableFailureIsRetriedAndItsPartialTranscriptKept() throws {
    let clock = InstantClock()
    let flaky = AgentLoopProvider(failures: 1)
    let options = RunnerOptions(retry: RetryPolicy(maxAttempts: 2, initialDelaySeconds: 0.5), retryClock: clock.clock)
    let recovered = try Runner(options: options, provider: { _ in flaky }).run(try cases(agentSuite)).first { $0.caseID == "capital" }
    #expect(recovered?.status == .passed && recovered?.attempts.first?.retries == 1)
    #expect(clock.waits == [0.5])
    let broken = AgentLoopProvider(failures: 10, failure: ToolCallError(tool: "lookup", message: "backend down"))
    let failed = try Runner(options: options, provider: { _ in broken }).run(try cases(agentSuite))
    for result in failed {
        let attempt = try #require(result.attempts.first)
        #expect(attempt.status == .error && attempt.retries == nil, "infrastructure is not retried")
        #expect(attempt.error?.domain == "LanguageModelSession.ToolCallError" && attempt.error?.caseName == "toolCallError")
        #expect(attempt.transcript.entries.count == 2, "the partial transcript (instructions, prompt) is kept")
    }
}
