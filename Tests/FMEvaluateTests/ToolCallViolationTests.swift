import FMCore
import Testing
@testable import FMEvaluate

/// Calls checked against their tools' own argument schemas, counted per keyword, within `toolCalls` budgets.
@Suite struct ToolCallViolationTests {
    func subject(_ calls: [(String, GeneratedContent)]) throws -> EvaluationSubject {
        let schema = try GenerationSchema(json: #"""
        {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"], "additionalProperties": false}
        """#)
        let tool = ToolDefinition(name: "forecast", description: "Weather forecast", parameters: schema)
        let toolCalls = calls.enumerated().map { ToolCall(id: "call-\($0)", name: $1.0, arguments: $1.1) }
        let transcript = Transcript(entries: [
            .instructions(.init(id: "i", segments: [], toolDefinitions: [tool])),
            .toolCalls(.init(id: "t", calls: toolCalls)),
        ])
        return EvaluationSubject(prompt: "prompt", text: "done", transcript: transcript)
    }

    func violations(_ expectation: TrajectoryExpectation, _ calls: [(String, GeneratedContent)]) throws -> Metric? {
        metric(ToolCallsEvaluator(expectation).evaluate(try subject(calls)), "toolCalls.violations")
    }

    @Test func noBudgetMeansNoGate() throws {
        #expect(try violations(.expected("forecast"), [("forecast", ["city": "Oslo", "extra": true])]) == nil)
    }

    @Test func extraArgumentAndDecimalIntegerAreCountedByKeyword() throws {
        var expectation = TrajectoryExpectation.expected("forecast")
        expectation.maxViolations = 0
        let decimal = try GeneratedContent(json: #"{"city": "Oslo", "days": 5.0, "units": "metric"}"#)
        let verdict = try #require(try violations(expectation, [("forecast", decimal)]))
        #expect(verdict.value == .failing)
        let rationale = verdict.rationale ?? ""
        #expect(rationale.contains("over budget (2 violations > maxViolations 0)"), "\(rationale)")
        #expect(rationale.contains("additionalProperties: 1, type: 1"), "\(rationale)")
        #expect(rationale.contains("/toolCalls/0/arguments/days type"), "\(rationale)")
        #expect(rationale.contains("/toolCalls/0/arguments/units additionalProperties"), "\(rationale)")
        let clean = try #require(try violations(expectation, [("forecast", ["city": "Oslo", "days": 5])]))
        #expect(clean.value == .passing)
        #expect(clean.rationale == "no argument-schema violations; within budget")
    }

    @Test func perKeywordBudgets() throws {
        var expectation = TrajectoryExpectation.expected("forecast")
        expectation.maxViolationsPerKeyword = ["additionalProperties": 1, "required": 0]
        let calls: [(String, GeneratedContent)] = [("forecast", ["city": "Oslo", "units": "metric"])]
        #expect(try violations(expectation, calls)?.value == .passing)
        let missing = try #require(try violations(expectation, calls + [("forecast", ["days": 2])]))
        #expect(missing.value == .failing)
        #expect(missing.rationale?.contains("over budget (required: 1 > 0)") == true, "\(missing.rationale ?? "")")
    }

    @Test func aCallToAToolNotOfferedIsNamed() throws {
        var expectation = TrajectoryExpectation.expected("forecast")
        expectation.maxViolations = 0
        let verdict = try #require(try violations(expectation, [("forecast", ["city": "Oslo"]), ("almanac", [:])]))
        #expect(verdict.rationale?.contains("unchecked: call #2 names almanac, which the session did not offer") == true)
    }

    @Test func budgetProblems() {
        let bad = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("a"))], maxViolations: -1, maxViolationsPerKeyword: ["enums": 0, "type": -2])
        #expect(bad.problems.contains("maxViolations must be 0 or more, not -1"))
        #expect(bad.problems.contains { $0.hasPrefix("maxViolationsPerKeyword: unknown keyword 'enums'") })
        #expect(bad.problems.contains("maxViolationsPerKeyword.type must be 0 or more, not -2"))
    }
}
