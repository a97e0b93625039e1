import FMCore

/// `regex`: passes when the output text has a match for the pattern.
public struct RegexEvaluator: Evaluator {
    /// The check.
    public let expectation: RegexExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: RegexExpectation, name: String = "regex") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: passing quotes the match; a pattern that does not compile fails with the compiler's reason.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try RegexCache.regex(expectation.pattern)
        } catch {
            return [.failing(name, rationale: "regex '\(expectation.pattern)' does not compile: \(error)")]
        }
        switch OutputTarget.text(of: subject, path: expectation.path) {
        case .missing(let reason):
            return [.failing(name, rationale: reason)]
        case .found(let text):
            let search = expectation.ignoreCase ? regex.ignoresCase() : regex
            if let match = try? search.firstMatch(in: text) {
                return [.passing(name, rationale: "/\(expectation.pattern)/ matched \(GeneratedContent(String(text[match.range])).jsonString)")]
            }
            return [.failing(name, rationale: "/\(expectation.pattern)/ has no match in \(abbreviate(GeneratedContent(text).jsonString))")]
        }
    }
}
