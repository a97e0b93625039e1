import FMCore
import Testing
@testable import FMEvaluate

@Suite struct BudgetEvaluatorTests {
    /// A city answer: `city` one of three, `days` 1…7, both required, nothing else.
    func citySchema() throws -> GenerationSchema {
        try GenerationSchema(content: GeneratedContent(json: """
            {"type": "object", "title": "Answer", "additionalProperties": false, "x-order": ["city", "days"],
             "required": ["city", "days"],
             "properties": {"city": {"type": "string", "enum": ["London", "Paris", "New York"]},
                            "days": {"type": "integer", "minimum": 1, "maximum": 7}}}
            """))
    }

    @Test func constraintsPassWithNoViolations() throws {
        let subject = structuredSubject(["city": "Paris", "days": 3], schema: try citySchema())
        let metrics = ConstraintsEvaluator(ConstraintExpectation()).evaluate(subject)
        #expect(metrics.allGatesPass)
        #expect(metric(metrics, "constraints.violations")?.value == .scoring(0))
    }

    @Test func constraintsCountPerKeywordAgainstBudgets() throws {
        let subject = structuredSubject(["city": "Beijing", "days": 12], schema: try citySchema())
        let strict = ConstraintsEvaluator(ConstraintExpectation()).evaluate(subject)
        #expect(!strict.allGatesPass)
        #expect(metric(strict, "constraints.violations")?.value == .scoring(2))
        #expect(strict.first?.rationale?.contains("enum: 1, maximum: 1") == true)
        #expect(strict.first?.rationale?.hasPrefix("over budget (2 violations > maxViolations 0)") == true)
        let total = ConstraintsEvaluator(ConstraintExpectation(maxViolations: 2)).evaluate(subject)
        #expect(total.allGatesPass)
        let perKeyword = ConstraintsEvaluator(ConstraintExpectation(maxViolations: 5, maxViolationsPerKeyword: ["enum": 0])).evaluate(subject)
        #expect(!perKeyword.allGatesPass)
        #expect(perKeyword.first?.rationale?.contains("enum: 1 > 0") == true)
    }

    @Test func constraintsUseTheirOwnSchemaAndParseText() throws {
        let subject = textSubject(#"{"city": "Paris"}"#)
        let metrics = ConstraintsEvaluator(ConstraintExpectation(schema: try citySchema())).evaluate(subject)
        #expect(!metrics.allGatesPass)
        #expect(metrics.first?.rationale?.contains("required") == true)
    }

    @Test func constraintsExplainWhyNothingCanBeChecked() throws {
        let noSchema = ConstraintsEvaluator(ConstraintExpectation()).evaluate(textSubject("{}"))
        #expect(noSchema.first?.rationale?.contains("no schema") == true)
        var cut = textSubject(#"{"city": "Par"#)
        cut.schema = try citySchema()
        cut.truncated = true
        let truncated = ConstraintsEvaluator(ConstraintExpectation(maxViolations: 100)).evaluate(cut)
        #expect(truncated.first?.value == .failing)
        #expect(truncated.first?.rationale?.contains("not valid JSON") == true)
        #expect(truncated.first?.rationale?.contains("cut by maximumResponseTokens") == true)
    }

    @Test func constraintBudgetProblems() {
        #expect(ConstraintExpectation(maxViolations: -1).problems.count == 1)
        #expect(ConstraintExpectation(maxViolationsPerKeyword: ["enums": 0]).problems.first?.contains("unknown keyword 'enums'") == true)
    }

    @Test func errorExpectation() {
        let overflow = EvaluationSubject(prompt: "p", error: SubjectError(caseName: "contextSizeExceeded", message: "4200 tokens > 4096"))
        #expect(ErrorEvaluator(ErrorExpectation(caseName: "contextSizeExceeded")).evaluate(overflow).allGatesPass)
        #expect(ErrorEvaluator(ErrorExpectation(messageContains: "4096")).evaluate(overflow).allGatesPass)
        let wrongCase = ErrorEvaluator(ErrorExpectation(caseName: "refusal")).evaluate(overflow)
        #expect(wrongCase.first?.rationale == "expected refusal, got contextSizeExceeded: 4200 tokens > 4096")
        let succeeded = ErrorEvaluator(ErrorExpectation(caseName: "refusal")).evaluate(textSubject("Sure!"))
        #expect(succeeded.first?.rationale == "expected refusal, but the attempt succeeded: \"Sure!\"")
    }

    @Test func usageBudget() {
        var subject = textSubject("x")
        subject.usage = Usage(inputTokens: 100, outputTokens: 30)
        #expect(UsageEvaluator(UsageBudget(maxOutputTokens: 30, maxTotalTokens: 130)).evaluate(subject).allGatesPass)
        let over = UsageEvaluator(UsageBudget(maxInputTokens: 99, maxTotalTokens: 120)).evaluate(subject)
        #expect(over.first?.rationale == "over budget: inputTokens 100 > 99, totalTokens 130 > 120")
        #expect(UsageBudget().problems.count == 1)
    }

    @Test func latencyBudget() {
        var subject = textSubject("x")
        subject.latencyMilliseconds = 250
        #expect(LatencyEvaluator(LatencyBudget(maxMilliseconds: 300)).evaluate(subject).allGatesPass)
        #expect(!LatencyEvaluator(LatencyBudget(maxMilliseconds: 200)).evaluate(subject).allGatesPass)
        let noSnapshot = LatencyEvaluator(LatencyBudget(maxTimeToFirstSnapshotMilliseconds: 100)).evaluate(subject)
        #expect(noSnapshot.first?.rationale?.contains("no snapshot was streamed") == true)
        subject.timeToFirstSnapshotMilliseconds = 40
        #expect(LatencyEvaluator(LatencyBudget(maxTimeToFirstSnapshotMilliseconds: 100)).evaluate(subject).allGatesPass)
        #expect(LatencyBudget(maxMilliseconds: 0).problems.count == 1)
    }

    @Test func snapshotBounds() {
        var toolOnly = callsSubject([("getCityInfo", [:])])
        toolOnly.snapshotCount = 0
        #expect(SnapshotsEvaluator(SnapshotExpectation(minimum: 0, maximum: 0)).evaluate(toolOnly).allGatesPass)
        let needsOne = SnapshotsEvaluator(SnapshotExpectation(minimum: 1)).evaluate(toolOnly)
        #expect(needsOne.first?.rationale == "0 snapshot(s) streamed, outside 1…∞")
        #expect(SnapshotExpectation(minimum: 3, maximum: 1).problems.count == 1)
    }
}
