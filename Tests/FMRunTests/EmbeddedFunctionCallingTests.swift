import FMCore
import FMEngines
import FMEvaluate
import FMResults
import FMRun
import FMSuite
import Foundation
import Testing

/// The repository root (three folders above this file).
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The embedded engine on the real model over BFCL-style tool-calling fixtures: the parallel-call grammar must
/// not cost single-call accuracy (a greedy model repeats its call; the repeats are left out of the turn), and
/// parallel calls must keep working. Figures are printed, not timed.
@Suite(.serialized)
struct EmbeddedFunctionCallingTests {
    /// Runs every suite under `path` (relative to the repository) on the embedded engine.
    private func run(_ path: String) throws -> [(item: ExpandedCase, result: CaseResult)] {
        let loaded = SuiteLoader.load(paths: [repository.appendingPathComponent(path).path])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let items = loaded.expandedCases
        let provider = try EngineRegistry.provider(for: EngineConfiguration(name: "embedded"))
        let results = try Runner(options: RunnerOptions(), provider: { _ in provider }).run(items)
        return try items.map { item in (item, try #require(results.first { $0.caseID == item.caseID })) }
    }

    /// Whether the first call of the attempt's first tool-calling turn alone meets the case's trajectory.
    private func firstCallPasses(_ item: ExpandedCase, _ attempt: AttemptResult) throws -> Bool {
        let trajectories = item.expectations.compactMap { $0.payload(as: TrajectoryExpectation.self) }
        let trajectory = try #require(trajectories.first)
        guard let call = StructuredTranscript(attempt.transcript).toolCalls.first else { return false }
        let transcript = Transcript(entries: [.toolCalls(.init(id: "first", calls: [call]))])
        let metrics = ToolCallsEvaluator(trajectory).evaluate(EvaluationSubject(prompt: "", transcript: transcript))
        return metrics.allSatisfy { $0.value != .failing }
    }

    @Test func simpleCasesScoreAtLeastWhatTheirFirstCallScores() throws {
        let cases = try run("fixtures/function-calling")
        #expect(cases.count == 60)
        var single = 0, first = 0, repeated = 0
        for (item, result) in cases {
            let attempt = try #require(result.attempts.first)
            if result.status == .passed { single += 1 }
            if try firstCallPasses(item, attempt) { first += 1 }
            let turn = attempt.transcript.entries.lazy.compactMap { entry -> [ToolCall]? in
                if case .toolCalls(let calls) = entry { return calls.calls }
                return nil
            }.first ?? []
            let isRepeat = { (call: ToolCall) in call.name == turn[0].name && call.arguments == turn[0].arguments }
            if turn.count > 1 && turn.dropFirst().contains(where: isRepeat) {
                repeated += 1
            }
        }
        print("function-calling simple: single-call \(single)/\(cases.count), "
              + "first call alone \(first)/\(cases.count), turns repeating a call \(repeated)")
        #expect(repeated == 0, "a turn the grammar wrote never holds the same call twice")
        #expect(single >= first, "single-call accuracy \(single) is below what the first call alone scores (\(first))")
        #expect(first >= 30, "the model gets at least half of the simple calls right on its first call: \(first)")
    }

    @Test func parallelCallsStillPassSevenOfTen() throws {
        let cases = try run("suites/parallel-tool-calls.yaml")
        let passed = cases.filter { $0.result.status == .passed }.count
        print("parallel-tool-calls: \(passed)/\(cases.count) passed")
        #expect(cases.count == 10 && passed >= 7, "\(passed)/\(cases.count)")
    }
}
