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
            var rationale = equal
                ? "output\(where_) equals \(shown(expectation.value))"
                : "expected\(where_) \(shown(expectation.value)), got \(shown(actual))"
            if !equal, isContainer(actual), isContainer(expectation.value) {
                let diff = differences(expected: expectation.value, actual: actual, at: expectation.path.map { $0.hasPrefix("/") ? $0 : "/" + $0 } ?? "")
                if !diff.isEmpty { rationale += " (" + diff.joined(separator: "; ") + ")" }
            }
            return [.check(name, equal, rationale: rationale)]
        }
    }
}

/// Whether `value` is an object or array (values a field-by-field difference can explain).
private func isContainer(_ value: GeneratedContent) -> Bool {
    switch value.kind {
    case .structure, .array: return true
    default: return false
    }
}
