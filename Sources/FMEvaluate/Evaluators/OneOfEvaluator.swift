import FMCore

/// `oneOf`: passes when the output (or the value at a path) equals one of the accepted values.
public struct OneOfEvaluator: Evaluator {
    /// The check.
    public let expectation: OneOfExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: OneOfExpectation, name: String = "oneOf") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: passing naming the value matched, failing listing what was accepted.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let where_ = expectation.path.map { " at \($0)" } ?? ""
        switch OutputTarget.value(of: subject, path: expectation.path) {
        case .missing(let reason):
            return [.failing(name, rationale: reason)]
        case .found(let actual):
            if let hit = expectation.values.first(where: { outputMatches(actual, $0, ignoreCase: expectation.ignoreCase) }) {
                return [.passing(name, rationale: "output\(where_) is \(shown(hit))")]
            }
            let accepted = abbreviate(expectation.values.map(\.jsonString).joined(separator: ", "))
            return [.failing(name, rationale: "output\(where_) \(shown(actual)) is none of [\(accepted)]")]
        }
    }
}
