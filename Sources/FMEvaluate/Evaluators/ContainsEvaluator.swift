import FMCore

/// `contains`: passes when the output text contains every listed substring.
public struct ContainsEvaluator: Evaluator {
    /// The check.
    public let expectation: ContainsExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: ContainsExpectation, name: String = "contains") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: failing names each missing substring.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        switch OutputTarget.text(of: subject, path: expectation.path) {
        case .missing(let reason):
            return [.failing(name, rationale: reason)]
        case .found(let text):
            let haystack = expectation.ignoreCase ? text.lowercased() : text
            let missing = expectation.substrings.filter { needle in
                !haystack.contains(expectation.ignoreCase ? needle.lowercased() : needle)
            }
            let quoted = { (items: [String]) in items.map { GeneratedContent($0).jsonString }.joined(separator: ", ") }
            if missing.isEmpty {
                return [.passing(name, rationale: "output contains \(quoted(expectation.substrings))")]
            }
            return [.failing(name, rationale: "output lacks \(quoted(missing)): \(abbreviate(GeneratedContent(text).jsonString))")]
        }
    }
}
