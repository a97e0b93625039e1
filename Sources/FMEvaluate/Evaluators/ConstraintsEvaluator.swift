import FMCore

/// `constraints` / `schema`: counts violations of the GenerationSchema per keyword and checks them
/// against the total and per-keyword budgets.
public struct ConstraintsEvaluator: Evaluator {
    /// The schema and budgets.
    public let expectation: ConstraintExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: ConstraintExpectation, name: String = "constraints") {
        self.expectation = expectation
        self.name = name
    }

    /// The violations of the subject's structured output, or the reason it cannot be checked at all
    /// (no schema, no output, output that is not JSON).
    public static func violations(of subject: EvaluationSubject, against schema: GenerationSchema?) -> Result<[Violation], EvaluatorFailure> {
        guard let schema = schema ?? subject.schema else {
            return .failure(EvaluatorFailure("there is no schema to check against: the case requested none; give constraints a schema"))
        }
        if let content = subject.content {
            return .success(SchemaValidator.violations(of: content, against: schema))
        }
        guard let text = subject.text else {
            let cause = subject.error.map { " (the attempt ended in \($0))" } ?? ""
            return .failure(EvaluatorFailure("the attempt produced no output to check\(cause)"))
        }
        do {
            return .success(SchemaValidator.violations(of: try GeneratedContent(json: text), against: schema))
        } catch {
            let truncated = subject.truncated ? " — the response was cut by maximumResponseTokens" : ""
            return .failure(EvaluatorFailure("the output is not valid JSON (\(error))\(truncated): \(abbreviate(GeneratedContent(text).jsonString))"))
        }
    }

    /// `<name>` (the budget verdict) and `<name>.violations` (the count, informational).
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let violations: [Violation]
        switch Self.violations(of: subject, against: expectation.schema) {
        case .failure(let failure): return [.failing(name, rationale: failure.message)]
        case .success(let found): violations = found
        }
        var perKeyword: [String: Int] = [:]
        for violation in violations { perKeyword[violation.keyword.rawValue, default: 0] += 1 }
        var over: [String] = []
        if violations.count > expectation.maxViolations {
            over.append("\(violations.count) violations > maxViolations \(expectation.maxViolations)")
        }
        for (keyword, limit) in expectation.maxViolationsPerKeyword.sorted(by: { $0.key < $1.key }) {
            let count = perKeyword[keyword] ?? 0
            if count > limit { over.append("\(keyword): \(count) > \(limit)") }
        }
        let tally = perKeyword.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let listed = violations.prefix(5).map { "\($0.path.isEmpty ? "/" : $0.path) \($0.keyword.rawValue): \($0.message)" }
        let more = violations.count > 5 ? ["… \(violations.count - 5) more"] : []
        let detail = violations.isEmpty ? "no violations" : "\(violations.count) violation(s) (\(tally)): " + (listed + more).joined(separator: "; ")
        let verdict: Metric = over.isEmpty
            ? .passing(name, rationale: "\(detail); within budget")
            : .failing(name, rationale: "over budget (\(over.joined(separator: ", "))); \(detail)")
        return [verdict, .scoring("\(name).violations", Double(violations.count), rationale: tally.isEmpty ? "none" : tally)]
    }
}
