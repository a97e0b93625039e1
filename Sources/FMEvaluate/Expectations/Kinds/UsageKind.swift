/// `usage`: token usage stays within budgets.
extension UsageBudget: ExpectationKind {
    /// `usage`.
    public static let keyword = "usage"

    /// The `usage` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "usage": {
          "type": "object", "additionalProperties": false, "description": "Token budgets for the attempt (all turns and tool rounds).",
          "properties": {
            "maxInputTokens": { "type": "integer", "minimum": 0 }, "maxOutputTokens": { "type": "integer", "minimum": 0 },
            "maxTotalTokens": { "type": "integer", "minimum": 0 }, "maxReasoningTokens": { "type": "integer", "minimum": 0 }
          }
        }
        """#)
    }

    /// A `UsageEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { UsageEvaluator(self) }
}

extension Expectation {
    /// Token usage stays within budgets.
    public static func usage(_ check: UsageBudget) -> Expectation { Expectation(check) }
}
