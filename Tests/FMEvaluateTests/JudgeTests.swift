import FMCore
import Testing
@testable import FMEvaluate

@Suite struct JudgeTests {
    let quality = ScoringScale.levels([ScaleLevel(1, "Wrong"), ScaleLevel(2, "Partly right"), ScaleLevel(3, "Right"), ScaleLevel(4, "Right and complete")])

    @Test func passFailJudgeAsksForAnEnumAndPasses() throws {
        let engine = FakeEngine(json: #"{"judge": {"rationale": "Polite and on topic.", "score": "pass"}}"#)
        let config = JudgeConfig(criteria: "The reply is polite.")
        let metrics = JudgeEvaluator(config, judge: ModelJudge(engine: engine)).evaluate(textSubject("Happy to help!"))
        #expect(metrics == [.passing("judge", rationale: "Polite and on topic.")])
        let request = try #require(engine.requests.first)
        let schema = try #require(request.schema)
        let score = schema.content["properties"]?["judge"]?["properties"]?["score"]
        #expect(score?["enum"] == ["pass", "fail"])
        #expect(request.options.sampling == .greedy)
        #expect(engine.lastPrompt.contains("## Response\nHappy to help!"))
        #expect(engine.lastPrompt.contains("The reply is polite."))
    }

    @Test func failScoreFails() {
        let engine = FakeEngine(json: #"{"judge": {"rationale": "Rude.", "score": "fail"}}"#)
        let metrics = JudgeEvaluator(JudgeConfig(criteria: "polite"), judge: ModelJudge(engine: engine)).evaluate(textSubject("No."))
        #expect(metrics == [.failing("judge", rationale: "Rude.")])
    }

    @Test func severalDimensionsInOneCallWithLevelDescriptions() throws {
        let engine = FakeEngine(json: """
            {"accuracy": {"rationale": "Correct city.", "score": "4"}, "tone": {"rationale": "Curt.", "score": "2"}}
            """)
        let config = JudgeConfig(name: "quality", scale: quality, dimensions: [
            ScoreDimension("accuracy", description: "Facts are right.", minimumScore: 3),
            ScoreDimension("tone", description: "Friendly tone.", minimumScore: 3),
        ])
        let metrics = JudgeEvaluator(config, judge: ModelJudge(engine: engine)).evaluate(textSubject("Paris."))
        #expect(engine.requests.count == 1)
        #expect(metric(metrics, "quality.accuracy")?.value == .scoring(4))
        #expect(metric(metrics, "quality.accuracy")?.verdict == true)
        #expect(metric(metrics, "quality.tone")?.verdict == false)
        #expect(metric(metrics, "quality.tone")?.rationale == "2 (Partly right): Curt.")
        #expect(engine.lastPrompt.contains("- 4: Right and complete"))
        let schema = try #require(engine.requests.first?.schema)
        #expect(schema.content["properties"]?["tone"]?["properties"]?["score"]?["enum"] == ["1", "2", "3", "4"])
    }

    @Test func continuousScoringAcceptsNumbersWithinTheScale() throws {
        let engine = FakeEngine(json: #"{"judge": {"rationale": "ok", "score": 2.5}}"#)
        let config = JudgeConfig(criteria: "good", scale: quality, scoringMode: .continuous)
        let metrics = JudgeEvaluator(config, judge: ModelJudge(engine: engine)).evaluate(textSubject("x"))
        #expect(metrics.first?.value == .scoring(2.5))
        #expect(metrics.first?.verdict == nil)
        let schema = try #require(engine.requests.first?.schema)
        #expect(schema.content["properties"]?["judge"]?["properties"]?["score"]?["maximum"] == 4)
    }

    @Test func pairwiseShowsBaselineAndCandidate() {
        let engine = FakeEngine(json: #"{"judge": {"rationale": "B adds the date.", "score": "3"}}"#)
        let config = JudgeConfig(criteria: "Which answer is more helpful?", scale: quality, pairwise: true, baseline: "Paris.",
                                 minimumScore: 2.5)
        let metrics = JudgeEvaluator(config, judge: ModelJudge(engine: engine)).evaluate(textSubject("Paris, on 3 May."))
        #expect(metrics.first?.verdict == true)
        #expect(engine.lastPrompt.contains("## Response A (baseline)\nParis."))
        #expect(engine.lastPrompt.contains("## Response B (candidate)\nParis, on 3 May."))
        var unanchored = config
        unanchored.baseline = nil
        #expect(unanchored.problems == ["pairwise judging needs a baseline: the response to compare with"], "a load error")
        let noBaseline = JudgeEvaluator(unanchored, judge: ModelJudge(engine: engine)).evaluate(textSubject("x"))
        #expect(noBaseline.first?.rationale?.contains("pairwise judging needs a baseline") == true)
        #expect(noBaseline.first?.evaluatorError == true, "a judge set up wrong is an evaluator error, not the response's failure")
        var inline = config
        inline.baseline = "Lyon."
        _ = JudgeEvaluator(inline, judge: ModelJudge(engine: engine)).evaluate(textSubject("Paris, on 3 May."))
        #expect(engine.lastPrompt.contains("## Response A (baseline)\nLyon."))
        #expect(JudgeConfig(criteria: "x", baseline: "b").problems.count == 1)
    }

    @Test func unusableJudgeAnswersFailWithTheReason() {
        let offScale = FakeEngine(json: #"{"judge": {"rationale": "?", "score": "7"}}"#)
        let config = JudgeConfig(criteria: "good", scale: quality)
        let metricsOff = JudgeEvaluator(config, judge: ModelJudge(engine: offScale)).evaluate(textSubject("x"))
        #expect(metricsOff.first?.rationale == "the judge's score 7 for 'judge' is not on the scale (1, 2, 3, 4)")
        let missing = FakeEngine(json: #"{"other": {}}"#)
        #expect(JudgeEvaluator(config, judge: ModelJudge(engine: missing)).evaluate(textSubject("x")).first?.rationale?.contains("lacks dimension 'judge'") == true)
        let prose = FakeEngine { _ in EngineResponse(text: "I think it is good") }
        #expect(JudgeEvaluator(config, judge: ModelJudge(engine: prose)).evaluate(textSubject("x")).first?.rationale?.contains("did not answer in JSON") == true)
        let broken = FakeEngine { _ in throw LanguageModelError.rateLimited(.init(debugDescription: "slow down")) }
        let failed = JudgeEvaluator(config, judge: ModelJudge(engine: broken)).evaluate(textSubject("x"))
        #expect(failed.first?.value == .failing)
        #expect(failed.first?.rationale?.contains("judge engine fake (fake-judge) failed") == true)
        #expect(JudgeEvaluator(config, judge: nil).evaluate(textSubject("x")).first?.rationale?.contains("no judge engine") == true)
    }

    @Test func naturalLanguageMatcherUsesTheJudge() {
        let yes = ModelJudge(engine: FakeEngine(json: #"{"rationale": "Paris is a capital.", "verdict": "satisfied"}"#))
        let no = ModelJudge(engine: FakeEngine(json: #"{"rationale": "Lyon is not a capital.", "verdict": "notSatisfied"}"#))
        let expectation = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("getCityInfo", arguments: [.naturalLanguage(argumentName: "city", criteria: "a capital city")]))])
        let subject = callsSubject([("getCityInfo", ["city": "Paris"])])
        #expect(ToolCallsEvaluator(expectation, judge: yes).evaluate(subject).allGatesPass)
        let failed = ToolCallsEvaluator(expectation, judge: no).evaluate(subject)
        #expect(!failed.allGatesPass)
        #expect(failed.first?.rationale?.contains("city: \"Paris\" does not satisfy \"a capital city\" (judge: Lyon is not a capital.)") == true)
    }

    @Test func judgeConfigProblems() {
        #expect(JudgeConfig().problems.first?.contains("needs criteria or dimensions") == true)
        #expect(JudgeConfig(criteria: "x", scale: .levels([ScaleLevel(1, "a")])).problems.count == 1)
        let twice = JudgeConfig(dimensions: [ScoreDimension("a", description: "x"), ScoreDimension("a", description: "y")])
        #expect(twice.problems.first?.contains("appears twice") == true)
    }
}
