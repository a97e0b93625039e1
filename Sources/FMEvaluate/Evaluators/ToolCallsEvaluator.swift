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
        let budget = expectation.checksArgumentSchemas ? [violationBudget(transcript.toolCalls, tools: subject.transcript.map(Self.toolSchemas) ?? [:])] : []
        switch expectation.metric {
        case .allPass:
            return [.check(allPassName, allPass, rationale: allPassRationale), percentage] + budget
        case .percentagePass:
            return [.scoring(allPassName, allPass ? 1 : 0, rationale: allPassRationale), percentage] + budget
        }
    }

    /// The argument schema of each tool the session offered, by name (from the transcript's instructions).
    static func toolSchemas(_ transcript: Transcript) -> [String: GenerationSchema] {
        var schemas: [String: GenerationSchema] = [:]
        for entry in transcript.entries {
            guard case .instructions(let instructions) = entry else { continue }
            for tool in instructions.toolDefinitions where schemas[tool.name] == nil { schemas[tool.name] = tool.parameters }
        }
        return schemas
    }

    /// Violations of each call's arguments against its tool's schema (paths `/toolCalls/N/arguments…`),
    /// and a note for each call to a tool the session did not offer (it has no schema to check against).
    public static func argumentViolations(_ calls: [ToolCall], tools: [String: GenerationSchema]) -> (violations: [Violation], unknownTools: [String]) {
        var violations: [Violation] = []
        var unknown: [String] = []
        for (index, call) in calls.enumerated() {
            guard let schema = tools[call.name] else {
                unknown.append("call #\(index + 1) names \(call.name), which the session did not offer")
                continue
            }
            for var violation in SchemaValidator.violations(of: call.arguments, against: schema) {
                violation.path = "/toolCalls/\(index)/arguments" + violation.path
                violations.append(violation)
            }
        }
        return (violations, unknown)
    }

    /// `<name>.violations`: the calls' argument-schema violations against `maxViolations` and the per-keyword budgets.
    private func violationBudget(_ calls: [ToolCall], tools: [String: GenerationSchema]) -> Metric {
        let metricName = "\(name).violations"
        let (violations, unknownTools) = Self.argumentViolations(calls, tools: tools)
        var perKeyword: [String: Int] = [:]
        for violation in violations { perKeyword[violation.keyword.rawValue, default: 0] += 1 }
        var over: [String] = []
        if let limit = expectation.maxViolations, violations.count > limit {
            over.append("\(violations.count) violations > maxViolations \(limit)")
        }
        for (keyword, limit) in expectation.maxViolationsPerKeyword.sorted(by: { $0.key < $1.key }) {
            let count = perKeyword[keyword] ?? 0
            if count > limit { over.append("\(keyword): \(count) > \(limit)") }
        }
        let tally = perKeyword.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let listed = violations.prefix(5).map { "\($0.path) \($0.keyword.rawValue): \($0.message)" }
        let more = violations.count > 5 ? ["… \(violations.count - 5) more"] : []
        var detail = violations.isEmpty ? "no argument-schema violations" : "\(violations.count) argument-schema violation(s) (\(tally)): " + (listed + more).joined(separator: "; ")
        if !unknownTools.isEmpty { detail += "; unchecked: " + unknownTools.joined(separator: ", ") }
        guard over.isEmpty else { return .failing(metricName, rationale: "over budget (\(over.joined(separator: ", "))); \(detail)") }
        return .passing(metricName, rationale: "\(detail); within budget")
    }

    /// The percentage threshold when percentagePass gates; nil (informational) otherwise.
    private var gatingThreshold: Double? {
        expectation.metric == .percentagePass ? expectation.minimumPercentage : nil
    }
}
