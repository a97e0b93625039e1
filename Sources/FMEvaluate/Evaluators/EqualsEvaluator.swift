import FMCore

/// `equals`: passes when the output (or the value at a path) equals the expected value.
public struct EqualsEvaluator: Evaluator {
    /// The check.
    public let expectation: EqualsExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: EqualsExpectation, name: String = "equals") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: passing when equal, failing with both values shown otherwise.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let where_ = expectation.path.map { " at \($0)" } ?? ""
        switch OutputTarget.value(of: subject, path: expectation.path) {
        case .missing(let reason):
            return [.failing(name, rationale: reason)]
        case .found(let actual):
            let equal = outputMatches(actual, expectation.value, ignoreCase: expectation.ignoreCase)
            let rationale = equal
                ? "output\(where_) equals \(shown(expectation.value))"
                : "expected\(where_) \(shown(expectation.value)), got \(shown(actual))"
            return [.check(name, equal, rationale: rationale)]
        }
    }
}
