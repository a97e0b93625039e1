/// `contains`: one substring, a list, or `{substrings, path?, ignoreCase?}`.
extension ContainsExpectation: ExpectationKind {
    /// `contains`.
    public static let keyword = "contains"

    /// A scalar becomes `{substrings: [it]}`, a list `{substrings: […]}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        if node.isScalar { return node.listed().wrapped(in: "substrings") }
        return node.isSequence ? node.wrapped(in: "substrings") : node
    }

    /// The `contains` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "contains": {
          "description": "The output text contains every substring; one string, a list, or {substrings, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "string" },
            { "type": "array", "minItems": 1, "items": { "type": "string" } },
            {
              "type": "object", "additionalProperties": false, "required": ["substrings"],
              "properties": { "substrings": { "type": "array", "minItems": 1, "items": { "type": "string" } }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        }
        """#)
    }

    /// A `ContainsEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { ContainsEvaluator(self) }
}

extension Expectation {
    /// The output text contains substrings.
    public static func contains(_ check: ContainsExpectation) -> Expectation { Expectation(check) }
}
