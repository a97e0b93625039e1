import FMCore
import Foundation
import Testing
@testable import FMEvaluate

/// Expectations and metrics print as the suite shape (`fmeval validate --json`, results files) and read back unchanged.
@Suite struct CodingTests {
    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test func everyExpectationKindRoundTrips() throws {
        let trajectory = TrajectoryExpectation(
            ordered: [.call(ToolCallExpectation("search", arguments: [.keyOnly(argumentName: "q")])),
                      .anyOrder([ToolCallExpectation("a", arguments: [.range(argumentName: "n", minimum: 1, maximum: nil)]), ToolCallExpectation("b")])],
            unordered: [ToolCallExpectation("c", arguments: [.oneOf(argumentName: "x", allowedValues: [1, "two"]), .pattern(argumentName: "y", regex: "^a"),
                                                             .contains(argumentName: "z", substring: "s"), .hasPrefix(argumentName: "p", prefix: "p"),
                                                             .hasSuffix(argumentName: "s", suffix: "s"), .naturalLanguage(argumentName: "t", criteria: "polite"),
                                                             .exact(argumentName: "e", value: ["k": [1, 2]])])],
            allowsAdditionalToolCalls: false, metric: .percentagePass, minimumPercentage: 0.8)
        let all: [Expectation] = [
            .equals(EqualsExpectation(["city": "Paris"], path: "/a", ignoreCase: true)), .oneOf(OneOfExpectation(["a", 1])),
            .contains(ContainsExpectation(["x"])), .regex(RegexExpectation("^x$")), .not(.contains(ContainsExpectation(["Beijing"]))),
            .constraints(ConstraintExpectation(maxViolations: 2, maxViolationsPerKeyword: ["enum": 0])), .toolCalls(trajectory),
            .error(ErrorExpectation(caseName: "refusal")), .usage(UsageBudget(maxOutputTokens: 10)), .latency(LatencyBudget(maxMilliseconds: 5)),
            .snapshots(SnapshotExpectation(minimum: 0, maximum: 0)),
            .judge(JudgeConfig(name: "q", engine: "embedded", criteria: "c", scale: .levels([ScaleLevel(1, "bad"), ScaleLevel(2, "good")]),
                               dimensions: [ScoreDimension("d", description: "x", scale: .binary, minimumScore: 1)], pairwise: true, baseline: ["a": 1],
                               scoringMode: .continuous, minimumScore: 1.5, reference: ["answer": "Paris"])),
            .command(CommandConfig(argv: ["./check.sh", "--strict"], timeoutSeconds: 5, name: "ext")),
        ]
        for expectation in all { #expect(try roundTrip(expectation) == expectation, "\(expectation.kind)") }
        #expect(Set(all.map(\.kind)).count == all.count)
        #expect(Set(all.map(\.kind)) == Set(ExpectationRegistry.builtIn.kinds.map { $0.keyword }), "every registered kind round-trips")
    }

    @Test func suiteShapeDecodesWithDefaults() throws {
        let decoded = try decode([Expectation].self, """
            [{"toolCalls": {"disallowed": [{"name": "getCityInfo"}]}},
             {"schema": {"maxViolations": 0}},
             {"toolCalls": {"ordered": [{"name": "getCityInfo", "arguments": [{"argument": "city", "exact": "Paris"}]}],
                            "allowsAdditionalToolCalls": false}}]
            """)
        #expect(decoded[0] == .toolCalls(TrajectoryExpectation(disallowed: [ToolCallExpectation("getCityInfo")])))
        #expect(decoded[1] == .constraints(ConstraintExpectation()))
        guard let ordered = decoded[2].payload(as: TrajectoryExpectation.self) else { Issue.record("not toolCalls"); return }
        #expect(ordered.ordered == [.call(ToolCallExpectation("getCityInfo", arguments: [.exact(argumentName: "city", value: "Paris")]))])
        #expect(ordered.metric == .allPass && !ordered.allowsAdditionalToolCalls)
    }

    @Test func badShapesSayWhatToWrite() {
        #expect(throws: DecodingError.self) { try decode(Expectation.self, #"{"equalz": "x"}"#) }
        #expect(throws: DecodingError.self) { try decode(Expectation.self, #"{"contains": {"substrings": ["a"]}, "regex": {"pattern": "b"}}"#) }
        #expect(throws: DecodingError.self) { try decode(ArgumentMatcher.self, #"{"argument": "a", "exact": 1, "keyOnly": true}"#) }
        do {
            _ = try decode(Expectation.self, #"{"equalz": "x"}"#)
        } catch {
            #expect("\(error)".contains("unknown expectation 'equalz'"))
        }
    }

    @Test func metricsRoundTripAndMapToNumbers() throws {
        let metrics: [Metric] = [.passing("a"), .failing("b", rationale: "why"), .scoring("c", 0.5, threshold: 0.4), .ignore("d", rationale: "n/a")]
        #expect(try roundTrip(metrics) == metrics)
        #expect(metrics.map(\.doubleValue) == [1, 0, 0.5, nil])
        #expect(metrics.map(\.verdict) == [true, false, true, nil])
        #expect(!metrics.allGatesPass)
        #expect(metrics.failingMetrics.map(\.name) == ["b"])
        #expect(Metric.scoring("c", 0.5, threshold: 0.75).description == "c: 0.5 (needs ≥ 0.75)")
        let infinite = try roundTrip(Metric.scoring("i", -.infinity))
        #expect(infinite.value == .scoring(-.infinity))
        guard case .scoring(let nan) = try roundTrip(Metric.scoring("n", .nan)).value else { Issue.record("not a score"); return }
        #expect(nan.isNaN)
        let json = String(decoding: try JSONEncoder().encode(Metric.scoring("s", 2)), as: UTF8.self)
        #expect(json.contains("\"value\":\"scoring\"") && json.contains("\"score\":2"))
    }

    @Test func factoryBuildsEveryEvaluatorAndEvaluatesAList() {
        let expectations: [Expectation] = [.contains(ContainsExpectation(["Paris"])), .not(.equals(EqualsExpectation("Rome"))), .snapshots(SnapshotExpectation(maximum: 3))]
        let metrics = expectations.evaluate(textSubject("Paris"))
        #expect(metrics.map(\.name) == ["contains", "not.equals", "snapshots"])
        #expect(metrics.allGatesPass)
        let judged = Expectation.judge(JudgeConfig(criteria: "x")).evaluator(in: EvaluationEnvironment(judgeEngine: { choice in
            choice.name == nil ? FakeEngine(json: #"{"judge": {"rationale": "fine", "score": "pass"}}"#) : nil
        }))
        #expect(judged.evaluate(textSubject("x")).allGatesPass)
        #expect(Expectation.judge(JudgeConfig(engine: "missing", criteria: "x")).evaluator().evaluate(textSubject("x")).first?.rationale?.contains("engine 'missing'") == true)
    }
}
