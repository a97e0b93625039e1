/// `latency`: time stays within budgets.
extension LatencyBudget: ExpectationKind {
    /// `latency`.
    public static let keyword = "latency"

    /// The `latency` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "latency": {
          "type": "object", "additionalProperties": false, "description": "Time budgets in milliseconds.",
          "properties": { "maxMilliseconds": { "type": "number", "minimum": 0 }, "maxTimeToFirstSnapshotMilliseconds": { "type": "number", "minimum": 0 } }
        }
        """#)
    }

    /// A `LatencyEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { LatencyEvaluator(self) }
}

extension Expectation {
    /// Time stays within budgets.
    public static func latency(_ check: LatencyBudget) -> Expectation { Expectation(check) }
}
