import FMCore
import Testing
@testable import FMEvaluate

/// Apple TrajectoryExpectation semantics: ordered, unordered, anyOrder, disallowed, extra calls, denominators.
@Suite struct TrajectoryTests {
    let paris: GeneratedContent = ["city": "Paris"]
    let city = { (name: String) -> ToolCallExpectation in
        ToolCallExpectation("getCityInfo", arguments: [.exact(argumentName: "city", value: GeneratedContent(name))])
    }

    func run(_ expectation: TrajectoryExpectation, _ calls: [(String, GeneratedContent)], judge: NaturalLanguageJudge? = nil) -> (allPass: Metric, percentage: Metric) {
        let metrics = ToolCallsEvaluator(expectation, judge: judge).evaluate(callsSubject(calls))
        return (metric(metrics, "toolCalls.allPass")!, metric(metrics, "toolCalls.percentagePass")!)
    }

    @Test func orderedSingleCallPasses() {
        let result = run(TrajectoryExpectation(ordered: [.call(city("Paris"))], allowsAdditionalToolCalls: false), [("getCityInfo", paris)])
        #expect(result.allPass.value == .passing)
        #expect(result.percentage.value == .scoring(1))
        #expect(result.allPass.rationale?.contains("→ call #1") == true)
    }

    @Test func wrongOrderFailsAndSaysSo() {
        let expectation = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("A")), .call(ToolCallExpectation("B"))])
        let result = run(expectation, [("B", [:]), ("A", [:])])
        #expect(result.allPass.value == .failing)
        #expect(result.percentage.value == .scoring(0.5))
        #expect(result.allPass.rationale?.contains("out of order") == true)
    }

    @Test func orderedMatchingMaximisesMetStepsWhereGreedyWouldNot() {
        // Greedy "A first" takes call #3 and then finds neither B nor C after it: 1 of 3.
        let expectation = TrajectoryExpectation(ordered: ["A", "B", "C"].map { .call(ToolCallExpectation($0)) })
        let result = run(expectation, [("B", [:]), ("C", [:]), ("A", [:])])
        #expect(result.percentage.value == .scoring(2.0 / 3.0))
        #expect(result.allPass.value == .failing)
    }

    @Test func extraCallsAreIgnoredByDefaultAndCountWhenBanned() {
        let calls: [(String, GeneratedContent)] = [("lookup", [:]), ("getCityInfo", paris), ("log", [:])]
        let lenient = run(TrajectoryExpectation(ordered: [.call(city("Paris"))]), calls)
        #expect(lenient.allPass.value == .passing)
        #expect(lenient.percentage.value == .scoring(1))
        let strict = run(TrajectoryExpectation(ordered: [.call(city("Paris"))], allowsAdditionalToolCalls: false), calls)
        #expect(strict.allPass.value == .failing)
        #expect(strict.percentage.value == .scoring(1.0 / 3.0))
        #expect(strict.allPass.rationale?.contains("unexpected call #1 lookup") == true)
        #expect(strict.allPass.rationale?.contains("unexpected call #3 log") == true)
        #expect(strict.percentage.rationale == "1 of 1 expectations met, plus 2 unexpected call(s) in the denominator")
    }

    @Test func appleDenominatorExampleTwoMatchedOneExtra() {
        let expectation = TrajectoryExpectation(unordered: [ToolCallExpectation("A"), ToolCallExpectation("B")], allowsAdditionalToolCalls: false)
        let result = run(expectation, [("B", [:]), ("C", [:]), ("A", [:])])
        #expect(result.percentage.value == .scoring(2.0 / 3.0))
        #expect(result.allPass.value == .failing)
    }

    @Test func duplicateCallFailsWhenExtrasAreBanned() {
        let result = run(TrajectoryExpectation(ordered: [.call(city("Paris"))], allowsAdditionalToolCalls: false),
                         [("getCityInfo", paris), ("getCityInfo", paris)])
        #expect(result.allPass.value == .failing)
        #expect(result.percentage.value == .scoring(0.5))
    }

    @Test func anyOrderGroupOccupiesOnePosition() {
        let group = ToolExpectation.anyOrder([city("Paris"), city("London")])
        let expectation = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("search")), group, .call(ToolCallExpectation("book"))])
        let inOrder = run(expectation, [("search", [:]), ("getCityInfo", ["city": "London"]), ("getCityInfo", paris), ("book", [:])])
        #expect(inOrder.allPass.value == .passing)
        #expect(inOrder.percentage.value == .scoring(1))
        let bookedEarly = run(expectation, [("search", [:]), ("book", [:]), ("getCityInfo", ["city": "London"]), ("getCityInfo", paris)])
        #expect(bookedEarly.allPass.value == .failing)
        // Each group member is one unit: search + 2 members met, book missed — 3 of 4.
        #expect(bookedEarly.percentage.value == .scoring(0.75))
        #expect(bookedEarly.allPass.rationale?.contains("ordered[2] book not met") == true)
    }

    @Test func anyOrderGroupUsesAnOptimalAssignment() {
        let anySearch = ToolCallExpectation("search", arguments: [.keyOnly(argumentName: "q")])
        let swiftSearch = ToolCallExpectation("search", arguments: [.contains(argumentName: "q", substring: "swift")])
        let calls: [(String, GeneratedContent)] = [("search", ["q": "swift tips"]), ("search", ["q": "weather"])]
        let result = run(TrajectoryExpectation(ordered: [.anyOrder([anySearch, swiftSearch])]), calls)
        #expect(result.allPass.value == .passing)
    }

    @Test func unorderedUsesAnOptimalAssignmentNotGreedyFirstMatch() {
        // Greedy first-match gives the keyOnly expectation call #1, leaving nothing for the "swift" one.
        let anySearch = ToolCallExpectation("search", arguments: [.keyOnly(argumentName: "q")])
        let swiftSearch = ToolCallExpectation("search", arguments: [.contains(argumentName: "q", substring: "swift")])
        let calls: [(String, GeneratedContent)] = [("search", ["q": "swift tips"]), ("search", ["q": "weather"])]
        let result = run(TrajectoryExpectation(unordered: [anySearch, swiftSearch], allowsAdditionalToolCalls: false), calls)
        #expect(result.allPass.value == .passing)
        #expect(result.percentage.value == .scoring(1))
        #expect(result.allPass.rationale?.contains("unordered[0] search(q: keyOnly) → call #2") == true)
    }

    @Test func bipartiteMatchingIsMaximum() {
        let matching = BipartiteMatching(edges: [[0, 1], [0], [1, 2]])
        #expect(matching.size == 3)
        #expect(matching.leftMatch == [1, 0, 2])
    }

    @Test func disallowedToolWithoutArguments() {
        let expectation = TrajectoryExpectation(disallowed: [ToolCallExpectation("getCityInfo")])
        let violated = run(expectation, [("getCityInfo", ["city": "Beijing"])])
        #expect(violated.allPass.value == .failing)
        #expect(violated.percentage.value == .scoring(0))
        #expect(violated.allPass.rationale == "disallowed[0]: tool getCityInfo is disallowed, but got call #1 getCityInfo {\"city\":\"Beijing\"}")
        let clean = run(expectation, [("search", [:])])
        #expect(clean.allPass.value == .passing)
        #expect(clean.percentage.value == .scoring(1))
    }

    @Test func disallowedWithArgumentsBansOnlyMatchingCalls() {
        let banned = ToolCallExpectation("getCityInfo", arguments: [.oneOf(argumentName: "city", allowedValues: ["Beijing", "Tokyo"])])
        let expectation = TrajectoryExpectation(disallowed: [banned])
        #expect(run(expectation, [("getCityInfo", paris)]).allPass.value == .passing)
        let violated = run(expectation, [("getCityInfo", paris), ("getCityInfo", ["city": "Tokyo"])])
        #expect(violated.allPass.value == .failing)
        #expect(violated.allPass.rationale?.contains("call #2 getCityInfo {\"city\":\"Tokyo\"}") == true)
        #expect(violated.allPass.rationale?.contains("call #1") == false)
    }

    @Test func everyMismatchExplainsItselfPerArgument() {
        let expected = ToolCallExpectation("getCityInfo", arguments: [
            .exact(argumentName: "city", value: "Paris"),
            .range(argumentName: "days", minimum: 1, maximum: 7),
            .hasPrefix(argumentName: "unit", prefix: "cel"),
            .keyOnly(argumentName: "lang"),
        ])
        let result = run(TrajectoryExpectation(ordered: [.call(expected)]), [("getCityInfo", ["city": "Rome", "days": 10, "unit": "fahrenheit"])])
        let rationale = result.allPass.rationale ?? ""
        #expect(rationale.contains("city: expected \"Paris\", got \"Rome\""))
        #expect(rationale.contains("days: 10 is above the range 1…7"))
        #expect(rationale.contains("unit: \"fahrenheit\" does not start with \"cel\""))
        #expect(rationale.contains("lang: missing"))
    }

    @Test func neverCalledNamesTheCallsThatHappened() {
        let result = run(TrajectoryExpectation(unordered: [city("Paris")]), [("search", [:])])
        #expect(result.allPass.rationale == "unordered[0] getCityInfo(city: exact): getCityInfo was never called (calls were search)")
    }

    @Test func matchersCoverEveryKind() {
        let arguments: GeneratedContent = ["city": "Paris", "days": 3, "code": "FR-75", "address": ["zip": "75001"]]
        let holds: [ArgumentMatcher] = [
            .exact(argumentName: "days", value: 3), .keyOnly(argumentName: "code"),
            .oneOf(argumentName: "city", allowedValues: ["Paris", "Lyon"]), .range(argumentName: "days", minimum: 3, maximum: nil),
            .pattern(argumentName: "code", regex: "^[A-Z]{2}-[0-9]+$"), .contains(argumentName: "city", substring: "ar"),
            .hasPrefix(argumentName: "code", prefix: "FR"), .hasSuffix(argumentName: "code", suffix: "75"),
            .exact(argumentName: "/address/zip", value: "75001"),
        ]
        for matcher in holds { #expect(matcher.failure(in: arguments, toolName: "t", judge: nil) == nil, "\(matcher)") }
        let fails: [ArgumentMatcher] = [
            .oneOf(argumentName: "city", allowedValues: ["Lyon"]), .range(argumentName: "days", minimum: nil, maximum: 2),
            .range(argumentName: "city", minimum: 0, maximum: 1), .pattern(argumentName: "code", regex: "^[0-9]+$"),
            .contains(argumentName: "days", substring: "3"), .hasSuffix(argumentName: "city", suffix: "x"),
            .naturalLanguage(argumentName: "city", criteria: "a capital"),
        ]
        for matcher in fails { #expect(matcher.failure(in: arguments, toolName: "t", judge: nil) != nil, "\(matcher)") }
    }

    @Test func percentagePassMetricGatesWithItsThreshold() {
        let expectation = TrajectoryExpectation(unordered: [ToolCallExpectation("A"), ToolCallExpectation("B")],
                                                metric: .percentagePass, minimumPercentage: 0.5)
        let metrics = ToolCallsEvaluator(expectation).evaluate(callsSubject([("A", [:])]))
        #expect(metrics.allGatesPass)
        #expect(metric(metrics, "toolCalls.allPass")?.value == .scoring(0))
        #expect(metric(metrics, "toolCalls.percentagePass")?.threshold == 0.5)
        let none = ToolCallsEvaluator(expectation).evaluate(callsSubject([]))
        #expect(!none.allGatesPass)
    }

    @Test func noTranscriptFails() {
        let metrics = ToolCallsEvaluator(TrajectoryExpectation(ordered: [.call(city("Paris"))])).evaluate(textSubject("hi"))
        #expect(!metrics.allGatesPass)
        #expect(metrics.first?.rationale?.contains("no transcript") == true)
    }

    @Test func noCallsRequiredByBanningExtras() {
        let expectation = TrajectoryExpectation(allowsAdditionalToolCalls: false)
        #expect(expectation.problems.isEmpty)
        #expect(run(expectation, []).allPass.value == .passing)
        #expect(run(expectation, []).percentage.value == .scoring(1))
        #expect(run(expectation, [("getCityInfo", paris)]).percentage.value == .scoring(0))
    }

    @Test func contradictoryAndEmptyExpectationsAreReported() {
        #expect(TrajectoryExpectation().problems.count == 1)
        let both = TrajectoryExpectation(disallowed: [ToolCallExpectation("x")], allowsAdditionalToolCalls: false)
        #expect(both.problems.first?.contains("disallowed cannot be combined") == true)
        let badRegex = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("x", arguments: [.pattern(argumentName: "a", regex: "(")]))])
        #expect(badRegex.problems.first?.hasPrefix("tool 'x': argument 'a': pattern") == true)
    }
}

/// Ordered and unordered expectations share the calls: the ordered plan must leave the unordered ones their calls.
@Suite struct TrajectorySharingTests {
    @Test func orderedStepLeavesTheOnlyFittingCallToAnUnorderedExpectation() {
        let anySearch = ToolCallExpectation("search")
        let swiftSearch = ToolCallExpectation("search", arguments: [.contains(argumentName: "q", substring: "swift")])
        let expectation = TrajectoryExpectation(ordered: [.call(anySearch)], unordered: [swiftSearch], allowsAdditionalToolCalls: false)
        let subject = callsSubject([("search", ["q": "swift tips"]), ("search", ["q": "weather"])])
        let metrics = ToolCallsEvaluator(expectation).evaluate(subject)
        #expect(metrics.allGatesPass)
        #expect(metric(metrics, "toolCalls.allPass")?.rationale?.contains("ordered[0] search → call #2, unordered[0] search(q: contains) → call #1") == true)
    }

    @Test func orderedStepsKeepTheirOrderWhileSharing() {
        let expectation = TrajectoryExpectation(ordered: [.call(ToolCallExpectation("a")), .call(ToolCallExpectation("b"))],
                                                unordered: [ToolCallExpectation("a", arguments: [.exact(argumentName: "n", value: 1)])])
        // Only call #1 has n = 1, so the ordered a must be call #3 — but b (call #2) precedes it: one of them is lost.
        let lost = ToolCallsEvaluator(expectation).evaluate(callsSubject([("a", ["n": 1]), ("b", [:]), ("a", ["n": 2])]))
        #expect(metric(lost, "toolCalls.percentagePass")?.value == .scoring(2.0 / 3.0))
        // With a later b, all three are met.
        let met = ToolCallsEvaluator(expectation).evaluate(callsSubject([("a", ["n": 1]), ("a", ["n": 2]), ("b", [:])]))
        #expect(met.allGatesPass)
    }
}

@Suite struct TrajectoryEdgeTests {
    @Test func partialAnyOrderGroupCountsItsMembers() {
        let group = ToolExpectation.anyOrder([ToolCallExpectation("a"), ToolCallExpectation("b"), ToolCallExpectation("c")])
        let metrics = ToolCallsEvaluator(TrajectoryExpectation(ordered: [group])).evaluate(callsSubject([("c", [:]), ("a", [:])]))
        #expect(metric(metrics, "toolCalls.percentagePass")?.value == .scoring(2.0 / 3.0))
        #expect(metric(metrics, "toolCalls.allPass")?.rationale == "ordered[0].anyOrder[1] b: b was never called (calls were c, a)")
    }

    @Test func anyOrderGroupWithExtrasBanned() {
        let group = ToolExpectation.anyOrder([ToolCallExpectation("a"), ToolCallExpectation("b")])
        let expectation = TrajectoryExpectation(ordered: [group, .call(ToolCallExpectation("c"))], allowsAdditionalToolCalls: false)
        #expect(ToolCallsEvaluator(expectation).evaluate(callsSubject([("b", [:]), ("a", [:]), ("c", [:])])).allGatesPass)
        let extra = ToolCallsEvaluator(expectation).evaluate(callsSubject([("b", [:]), ("x", [:]), ("a", [:]), ("c", [:])]))
        #expect(metric(extra, "toolCalls.percentagePass")?.value == .scoring(0.75))
    }

    @Test func expectedConvenienceIsOneOrderedCall() {
        let expectation = TrajectoryExpectation.expected("getCityInfo", arguments: [.keyOnly(argumentName: "city")])
        #expect(expectation.ordered.count == 1 && expectation.allowsAdditionalToolCalls)
        #expect(ToolCallsEvaluator(expectation).evaluate(callsSubject([("getCityInfo", ["city": "Oslo"])])).allGatesPass)
        #expect(!ToolCallsEvaluator(expectation).evaluate(callsSubject([("getCityInfo", [:])])).allGatesPass)
    }

    @Test func pointerEscapesAndArrayIndexes() {
        let arguments: GeneratedContent = ["a/b": ["x~y": 1], "list": [10, 20]]
        #expect(JSONPointer.resolve("/a~1b/x~0y", in: arguments) == 1)
        #expect(JSONPointer.resolve("/list/1", in: arguments) == 20)
        #expect(JSONPointer.resolve("/list/2", in: arguments) == nil)
        #expect(JSONPointer.resolve("list", in: arguments) == [10, 20])
    }
}
