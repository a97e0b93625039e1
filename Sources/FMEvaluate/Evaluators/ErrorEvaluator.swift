import FMCore

/// `error`: passes when the attempt ended in the expected error.
public struct ErrorEvaluator: Evaluator {
    /// The expected error.
    public let expectation: ErrorExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: ErrorExpectation, name: String = "error") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: failing says what was expected and what happened instead.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let wanted = expectation.caseName ?? "an error"
        guard let error = subject.error else {
            let output = subject.outputText.map { ": \(abbreviate(GeneratedContent($0).jsonString))" } ?? ""
            return [.failing(name, rationale: "expected \(wanted), but the attempt succeeded\(output)")]
        }
        if let caseName = expectation.caseName, error.caseName != ErrorTaxonomy.canonical(caseName) {
            return [.failing(name, rationale: "expected \(caseName), got \(error)")]
        }
        if let needle = expectation.messageContains, !error.message.contains(needle) {
            return [.failing(name, rationale: "expected the message to contain \(GeneratedContent(needle).jsonString), got \(error)")]
        }
        return [.passing(name, rationale: "ended in \(error)")]
    }
}
