import Foundation
import FMCore
import Testing
@testable import FMEvaluate

/// An evaluator that cannot give a verdict says so with `evaluatorError`, so the runner can make the
/// attempt an error instead of a model failure.
@Suite struct EvaluatorErrorTests {
    func command(_ argv: [String], timeout: Double = 10) -> Metric? {
        CommandEvaluator(CommandConfig(argv: argv, timeoutSeconds: timeout, name: "ext")).evaluate(textSubject("Paris")).first
    }

    @Test func commandsThatCannotGiveAVerdictAreEvaluatorErrors() throws {
        let missing = try #require(command(["fmeval-no-such-evaluator-xyz"]))
        #expect(missing.evaluatorError)
        #expect(missing.rationale?.contains("cannot start 'fmeval-no-such-evaluator-xyz': not found on PATH") == true, "\(missing.rationale ?? "")")
        let crash = try #require(command(["sh", "-c", "kill -SEGV $$"]))
        #expect(crash.evaluatorError && crash.rationale?.contains("crashed") == true)
        let hang = try #require(command(["sh", "-c", "sleep 30"], timeout: 0.3))
        #expect(hang.evaluatorError && hang.rationale?.contains("did not finish within 0.3 s") == true)
        for script in ["cat >/dev/null; exit 1", "cat >/dev/null; echo garbage", "cat >/dev/null", #"cat >/dev/null; echo '{"value":"maybe"}'"#] {
            #expect(command(["sh", "-c", script])?.evaluatorError == true, "\(script)")
        }
    }

    @Test func aVerdictFromTheCommandIsNotAnEvaluatorError() {
        let failing = command(["sh", "-c", #"cat >/dev/null; echo '{"value":"failing","rationale":"no"}'"#])
        #expect(failing?.value == .failing)
        #expect(failing?.evaluatorError == false)
        #expect(command(["sh", "-c", #"cat >/dev/null; echo '{"value":"passing"}'"#])?.evaluatorError == false)
    }

    @Test func notKeepsAnEvaluatorErrorInsteadOfInvertingIt() throws {
        let inner = CommandEvaluator(CommandConfig(argv: ["fmeval-no-such-evaluator-xyz"], name: "ext"))
        let metric = try #require(NotEvaluator(inner).evaluate(textSubject("x")).first)
        #expect(metric.evaluatorError)
        #expect(metric.verdict == false)
        #expect(metric.rationale?.hasPrefix("the inner check could not give a verdict: ext: failing") == true)
    }

    @Test func aJudgeWithoutAWorkingEngineIsAnEvaluatorError() {
        let config = JudgeConfig(criteria: "good")
        let broken = FakeEngine { _ in throw LanguageModelError.rateLimited(.init(debugDescription: "slow down")) }
        let failed = JudgeEvaluator(config, judge: ModelJudge(engine: broken)).evaluate(textSubject("x"))
        #expect(failed.allSatisfy(\.evaluatorError) && !failed.isEmpty)
        #expect(failed.first?.rationale?.hasPrefix("judge error: judge engine fake (fake-judge) failed") == true)
        let absent = JudgeEvaluator(config, judge: nil).evaluate(textSubject("x"))
        #expect(absent.first?.evaluatorError == true)
        let prose = FakeEngine { _ in EngineResponse(text: "I think it is good") }
        #expect(JudgeEvaluator(config, judge: ModelJudge(engine: prose)).evaluate(textSubject("x")).first?.evaluatorError == true)
        // A verdict the judge did give is the judged response's own result.
        let fail = FakeEngine(json: #"{"judge": {"rationale": "rude", "score": "fail"}}"#)
        #expect(JudgeEvaluator(config, judge: ModelJudge(engine: fail)).evaluate(textSubject("x")).first?.evaluatorError == false)
    }

    @Test func theMarkSurvivesTheResultsFile() throws {
        let metric = Metric.evaluatorError("ext", rationale: "evaluator error: gone")
        let data = try JSONEncoder().encode([metric, .failing("plain", rationale: "no")])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.components(separatedBy: "\"evaluatorError\":true").count == 2, "only the broken metric carries the mark: \(text)")
        let decoded = try JSONDecoder().decode([Metric].self, from: data)
        #expect(decoded == [metric, .failing("plain", rationale: "no")])
    }
}
