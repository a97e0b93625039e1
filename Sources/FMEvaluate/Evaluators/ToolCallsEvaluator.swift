import FMCore

/// `toolCalls`: scores the attempt's tool calls against a `TrajectoryExpectation` (Apple's
/// `ToolCallEvaluator`), producing both `allPass` and `percentagePass` in one pass.
public struct ToolCallsEvaluator: Evaluator {
    /// The expected trajectory.
    public let expectation: TrajectoryExpectation
    /// Metric name prefix (`toolCalls`).
    public let name: String
    /// Judge for `naturalLanguage` argument matchers; nil makes them fail with a clear reason.
    public let judge: NaturalLanguageJudge?

    /// Creates the evaluator.
    public init(_ expectation: TrajectoryExpectation, name: String = "toolCalls", judge: NaturalLanguageJudge? = nil) {
        self.expectation = expectation
        self.name = name
        self.judge = judge
    }

    /// `<name>.allPass` and `<name>.percentagePass`; the one named by `expectation.metric` gates the attempt.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let allPassName = "\(name).allPass"
        let percentageName = "\(name).percentagePass"
        guard let transcript = subject.structuredTranscript else {
            let reason = "the attempt has no transcript, so its tool calls cannot be checked" + (subject.error.map { " (it ended in \($0))" } ?? "")
            return [.failing(allPassName, rationale: reason), Metric.scoring(percentageName, 0, threshold: gatingThreshold, rationale: reason)]
        }
        let matcher = TrajectoryMatcher(expectation: expectation, calls: transcript.toolCalls, judge: judge)
        let report = matcher.report()
        let allPass = report.problems.isEmpty
        let allPassRationale: String
        if allPass {
            let met = report.matches.map { "\($0.label) → call #\($0.call + 1)" }
            let summary = "all \(report.total) expectations met over \(transcript.toolCalls.count) calls"
            allPassRationale = met.isEmpty ? summary : summary + ": " + met.joined(separator: ", ")
        } else {
            allPassRationale = report.problems.joined(separator: "; ")
        }
        var percentageRationale = "\(report.matched) of \(report.total) expectations met"
        if !report.unexpected.isEmpty {
            percentageRationale += ", plus \(report.unexpected.count) unexpected call(s) in the denominator"
        }
        let percentage = Metric.scoring(percentageName, report.percentage, threshold: gatingThreshold, rationale: percentageRationale)
        switch expectation.metric {
        case .allPass:
            return [.check(allPassName, allPass, rationale: allPassRationale), percentage]
        case .percentagePass:
            return [.scoring(allPassName, allPass ? 1 : 0, rationale: allPassRationale), percentage]
        }
    }

    /// The percentage threshold when percentagePass gates; nil (informational) otherwise.
    private var gatingThreshold: Double? {
        expectation.metric == .percentagePass ? expectation.minimumPercentage : nil
    }
}
