/// `oneOf`: a list of values, or `{values, path?, ignoreCase?}`.
extension OneOfExpectation: ExpectationKind {
    /// `oneOf`.
    public static let keyword = "oneOf"

    /// A list becomes `{values: […]}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        node.isSequence ? node.wrapped(in: "values") : node
    }

    /// The `oneOf` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "oneOf": {
          "description": "The output equals one of the values; or {values, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "array" },
            {
              "type": "object", "additionalProperties": false, "required": ["values"],
              "properties": { "values": { "type": "array", "minItems": 1 }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        }
        """#)
    }

    /// At least one value.
    public var problems: [String] { values.isEmpty ? ["oneOf needs at least one value"] : [] }

    /// A `OneOfEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { OneOfEvaluator(self) }
}

extension Expectation {
    /// The output equals one of several values.
    public static func oneOf(_ check: OneOfExpectation) -> Expectation { Expectation(check) }
}
