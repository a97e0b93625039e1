import FMCore
import Testing
@testable import FMEvaluate

@Suite struct TextEvaluatorTests {
    @Test func equalsTrimsTextAndExplainsMismatch() {
        let pass = EqualsEvaluator(EqualsExpectation("Paris")).evaluate(textSubject("  Paris\n"))
        #expect(pass.first?.value == .passing)
        let fail = EqualsEvaluator(EqualsExpectation("Paris")).evaluate(textSubject("paris"))
        #expect(fail.first?.value == .failing)
        #expect(fail.first?.rationale == "expected \"Paris\", got \"paris\"")
        let folded = EqualsEvaluator(EqualsExpectation("Paris", ignoreCase: true)).evaluate(textSubject("paris"))
        #expect(folded.first?.value == .passing)
    }

    @Test func equalsComparesStructuresByValueAndPath() {
        let output: GeneratedContent = ["city": "Paris", "days": 3]
        let reordered: GeneratedContent = ["days": 3, "city": "Paris"]
        #expect(EqualsEvaluator(EqualsExpectation(reordered)).evaluate(structuredSubject(output)).allGatesPass)
        #expect(EqualsEvaluator(EqualsExpectation(3, path: "/days")).evaluate(structuredSubject(output)).allGatesPass)
        let wrong = EqualsEvaluator(EqualsExpectation(4, path: "/days")).evaluate(structuredSubject(output))
        #expect(wrong.first?.rationale == "expected at /days 4, got 3")
        let missing = EqualsEvaluator(EqualsExpectation(4, path: "/nights")).evaluate(structuredSubject(output))
        #expect(missing.first?.value == .failing)
        #expect(missing.first?.rationale?.contains("no value at /nights") == true)
    }

    @Test func equalsReadsJSONFromText() {
        #expect(EqualsEvaluator(EqualsExpectation(42)).evaluate(textSubject("42\n")).allGatesPass)
        #expect(!EqualsEvaluator(EqualsExpectation(42)).evaluate(textSubject("forty-two")).allGatesPass)
    }

    @Test func noOutputFailsWithTheError() {
        let subject = EvaluationSubject(prompt: "p", error: SubjectError(caseName: "refusal", message: "no"))
        let metrics = EqualsEvaluator(EqualsExpectation("x")).evaluate(subject)
        #expect(metrics.first?.rationale == "the attempt produced no output (the attempt ended in refusal: no)")
    }

    @Test func oneOf() {
        let check = OneOfExpectation(["London", "Paris"])
        #expect(OneOfEvaluator(check).evaluate(textSubject("Paris")).first?.rationale == "output is \"Paris\"")
        let fail = OneOfEvaluator(check).evaluate(textSubject("Rome"))
        #expect(fail.first?.value == .failing)
        #expect(fail.first?.rationale == "output \"Rome\" is none of [\"London\", \"Paris\"]")
    }

    @Test func containsNamesMissingSubstrings() {
        let check = ContainsExpectation(["sunny", "21"])
        #expect(ContainsEvaluator(check).evaluate(textSubject("It is sunny, 21°C")).allGatesPass)
        let fail = ContainsEvaluator(check).evaluate(textSubject("It is Sunny"))
        #expect(fail.first?.rationale?.hasPrefix("output lacks \"sunny\", \"21\"") == true)
        #expect(ContainsEvaluator(ContainsExpectation(["SUNNY"], ignoreCase: true)).evaluate(textSubject("sunny")).allGatesPass)
    }

    @Test func regexMatchesAndReportsBadPatterns() {
        #expect(RegexEvaluator(RegexExpectation("^[0-9]{3}$")).evaluate(textSubject("123")).allGatesPass)
        #expect(!RegexEvaluator(RegexExpectation("^[0-9]{3}$")).evaluate(textSubject("1234")).allGatesPass)
        #expect(RegexEvaluator(RegexExpectation("paris", ignoreCase: true)).evaluate(textSubject("PARIS")).allGatesPass)
        let broken = RegexEvaluator(RegexExpectation("(")).evaluate(textSubject("x"))
        #expect(broken.first?.value == .failing)
        #expect(broken.first?.rationale?.contains("does not compile") == true)
        #expect(RegexExpectation("(").patternProblem != nil)
    }

    @Test func notInvertsTheInnerVerdict() {
        let notBeijing = NotEvaluator(ContainsEvaluator(ContainsExpectation(["Beijing"])))
        #expect(notBeijing.name == "not.contains")
        #expect(notBeijing.evaluate(textSubject("I can only help with London, Paris and New York.")).allGatesPass)
        let fail = notBeijing.evaluate(textSubject("Beijing is sunny"))
        #expect(fail.first?.value == .failing)
        #expect(fail.first?.rationale?.hasPrefix("the inner check held") == true)
    }
}

@Suite struct EqualsDiffTests {
    @Test func structuredMismatchListsEachDifference() {
        let expected: GeneratedContent = ["city": "Paris", "days": 3, "tags": ["a", "b"], "meta": ["x": 1]]
        let actual: GeneratedContent = ["city": "Paris", "days": 4, "tags": ["a"], "extra": true]
        let rationale = EqualsEvaluator(EqualsExpectation(expected)).evaluate(structuredSubject(actual)).first?.rationale ?? ""
        #expect(rationale.contains("(/days: expected 3, got 4; /tags: expected 2 elements, got 1; /meta: missing; /extra: not expected)"))
    }
}
