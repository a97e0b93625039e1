import Foundation
import Testing
import FMCore
import FMEvaluate
import FMResults

/// The run-level token counts, cache hit rate, reused attempts and `RunThroughput`, on hand-built results.
@Suite struct ThroughputTests {
    func attempt(_ index: Int, input: Int, cached: Int, output: Int, reusedFrom: Int? = nil,
                 timings: EngineTimings? = nil, text: String = "yes") -> AttemptResult {
        var attempt = AttemptResult(index: index, status: .passed, text: text, transcript: Transcript(),
                                    usage: Usage(inputTokens: input, cachedInputTokens: cached, outputTokens: output))
        attempt.reusedFrom = reusedFrom
        attempt.timings = timings
        return attempt
    }

    func run(_ attempts: [[AttemptResult]], durationMs: Double = 2000) -> RunResult {
        let cases = attempts.enumerated().map { index, attempts in
            CaseResult(id: "s/c\(index)", suite: "s", caseID: "c\(index)", attempts: attempts, durationMs: 1)
        }
        let fingerprint = Fingerprint(fmevalVersion: "test", engine: EngineIdentity(name: "embedded", model: "m"),
                                      os: "os", cpu: "cpu", cpuCount: 2, architecture: "x86_64")
        return RunResult(run: RunInfo(id: "r", startedAt: "2026-11-30T00:00:00Z", durationMs: durationMs, fingerprint: fingerprint),
                         cases: cases)
    }

    @Test func hitRateIsCachedOverInputTokensOfTheAttemptsTheEngineAnswered() {
        let result = run([
            [attempt(0, input: 100, cached: 0, output: 3), attempt(1, input: 100, cached: 0, output: 3, reusedFrom: 0)],
            [attempt(0, input: 120, cached: 90, output: 4)],
            [attempt(0, input: 80, cached: 60, output: 2)],
        ])
        #expect(result.summary.attempts == 4)
        #expect(result.summary.reusedAttempts == 1)
        #expect(result.summary.inputTokens == 300)
        #expect(result.summary.cachedInputTokens == 150)
        #expect(result.summary.cacheHitRate == 0.5)
        #expect(run([[attempt(0, input: 0, cached: 0, output: 0)]]).summary.cacheHitRate == nil)
        #expect(RunSummary.hitRate(cached: 1, of: 3) == 1.0 / 3.0)
    }

    @Test func summariesWithoutTheNewCountsStillLoad() throws {
        let json = """
        {"total": 1, "passed": 1, "failed": 0, "flaky": 0, "errored": 0, "skipped": 0, "gatesFailed": 0,
         "attempts": 2, "nondeterministic": 0}
        """
        let summary = try JSONDecoder().decode(RunSummary.self, from: Data(json.utf8))
        #expect(summary.reusedAttempts == 0 && summary.inputTokens == 0 && summary.cachedInputTokens == 0)
        #expect(summary.cacheHitRate == nil)
        let written = run([[attempt(0, input: 10, cached: 5, output: 1)]]).summary
        let reread = try JSONDecoder().decode(RunSummary.self, from: JSONEncoder().encode(written))
        #expect(reread == written)
    }

    @Test func attemptsWithoutReuseOrTimingsStillLoad() throws {
        let encoded = try JSONEncoder().encode(attempt(0, input: 1, cached: 0, output: 1))
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["reusedFrom"] == nil && object["timings"] == nil)
        object["reusedFrom"] = 0
        object["timings"] = ["prefillTokens": 10, "prefillMs": 20.0, "decodeTokens": 4, "decodeMs": 8.0]
        let decoded = try JSONDecoder().decode(AttemptResult.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.reusedFrom == 0)
        #expect(decoded.timings == EngineTimings(prefillTokens: 10, prefillMs: 20, decodeTokens: 4, decodeMs: 8))
    }

    @Test func theWallTimeSplitsIntoEngineGrammarToolAndHarnessParts() throws {
        let timing = EngineTimings(prefillTokens: 50, prefillMs: 400, decodeTokens: 10, decodeMs: 1000,
                                   maskMs: 150, grammarMs: 100)
        var tooled = attempt(0, input: 60, cached: 0, output: 10, timings: timing)
        tooled.toolMs = 250
        var reused = attempt(1, input: 60, cached: 0, output: 10, reusedFrom: 0, timings: timing)
        reused.toolMs = 250
        let freeTiming = EngineTimings(prefillTokens: 10, prefillMs: 50, decodeTokens: 2, decodeMs: 200)
        let free = attempt(0, input: 10, cached: 0, output: 2, timings: freeTiming)
        let result = run([[tooled, reused], [free]], durationMs: 3000)
        let figures = RunThroughput(result, jobs: 1)
        #expect(figures.prefillSeconds == 0.45 && figures.decodeSeconds == 1.2)
        #expect(figures.maskSeconds == 0.15 && figures.grammarSeconds == 0.1)
        #expect(figures.toolSeconds == 0.25, "a reused attempt ran no tool")
        let harness = try #require(figures.harnessSeconds)
        #expect(abs(harness - (3 - 0.45 - 1.2 - 0.1 - 0.25)) < 1e-9,
                "masks are inside prefill and decode, not added again")
        #expect(RunThroughput(result, jobs: 4).harnessSeconds == nil, "concurrent cases overlap: no harness share")
        let untimed = RunThroughput(run([[attempt(0, input: 1, cached: 0, output: 1)]]), jobs: 1)
        #expect(untimed.harnessSeconds == nil && untimed.maskSeconds == nil && untimed.toolSeconds == 0)
        #expect((EngineTimings(maskMs: 2) + EngineTimings()).maskMs == 2)
        #expect((EngineTimings() + EngineTimings(grammarMs: 3)).grammarMs == 3)
        #expect((EngineTimings() + EngineTimings()).maskMs == nil)
    }

    @Test func throughputFiguresComeFromTheEnginesTimingsOfAnsweredAttempts() {
        let timing = EngineTimings(prefillTokens: 50, prefillMs: 100, decodeTokens: 10, decodeMs: 40)
        let result = run([
            [attempt(0, input: 60, cached: 10, output: 10, timings: timing),
             attempt(1, input: 60, cached: 10, output: 10, reusedFrom: 0, timings: timing)],
            [attempt(0, input: 60, cached: 10, output: 10, timings: timing)],
        ], durationMs: 4000)
        let figures = RunThroughput(result, jobs: 1)
        #expect(figures.cases == 2 && figures.attempts == 3 && figures.reusedAttempts == 1)
        #expect(figures.casesPerSecond == 0.5)
        #expect(figures.prefillTokens == 100 && figures.prefillSeconds == 0.2)
        #expect(figures.prefillTokensPerSecond == 500)
        #expect(figures.decodeTokens == 20 && figures.decodeTokensPerSecond == 250)
        #expect(figures.outputTokens == 20)
        #expect(figures.cacheHitRate == 20.0 / 120.0)
        let untimed = RunThroughput(run([[attempt(0, input: 1, cached: 0, output: 1)]]), jobs: 1)
        #expect(untimed.prefillTokensPerSecond == nil)
    }

    @Test func answersDigestChangesWithAnyAnswerButNotWithCaseOrder() {
        let a = run([[attempt(0, input: 1, cached: 0, output: 1, text: "yes")], [attempt(0, input: 1, cached: 0, output: 1, text: "no")]])
        var shuffled = a
        shuffled.cases.reverse()
        #expect(RunThroughput.answersDigest(a.cases) == RunThroughput.answersDigest(shuffled.cases))
        let b = run([[attempt(0, input: 1, cached: 0, output: 1, text: "yes")], [attempt(0, input: 1, cached: 0, output: 1, text: "yes")]])
        #expect(RunThroughput.answersDigest(a.cases) != RunThroughput.answersDigest(b.cases))
    }
}
