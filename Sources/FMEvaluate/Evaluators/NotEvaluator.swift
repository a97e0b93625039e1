/// `not`: passes when the inner expectation does not hold.
public struct NotEvaluator: Evaluator {
    /// The evaluator whose verdict is inverted.
    public let inner: any Evaluator
    /// Metric name (`not.<inner name>`).
    public let name: String

    /// Creates the evaluator.
    public init(_ inner: any Evaluator) {
        self.inner = inner
        self.name = "not.\(inner.name)"
    }

    /// One metric: the inverse of the inner verdict, quoting the inner rationales; an inner evaluator
    /// that could not give a verdict stays an evaluator error (not inverted into a pass).
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let metrics = inner.evaluate(subject)
        if let broken = metrics.firstEvaluatorError {
            return [.evaluatorError(name, rationale: "the inner check could not give a verdict: \(broken.description)")]
        }
        let gating = metrics.filter { $0.verdict != nil }
        let detail = metrics.map(\.description).joined(separator: "; ")
        guard !gating.isEmpty else {
            return [.failing(name, rationale: "the inner check gives no verdict to invert (\(detail))")]
        }
        let held = metrics.allGatesPass
        return [.check(name, !held, rationale: held ? "the inner check held, so not fails: \(detail)" : "the inner check did not hold: \(detail)")]
    }
}
