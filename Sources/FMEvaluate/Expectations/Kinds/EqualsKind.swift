/// `equals`: a bare value, or `{value, path?, ignoreCase?}`.
extension EqualsExpectation: ExpectationKind {
    /// `equals`.
    public static let keyword = "equals"

    /// A bare value (anything but a mapping of just `value`, `path` and `ignoreCase`) becomes `{value: …}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        guard let keys = node.mappingKeys, keys.contains("value"), Set(keys).isSubset(of: ["value", "path", "ignoreCase"]) else {
            return node.wrapped(in: "value")
        }
        return node
    }

    /// The `equals` property and the `equalsCheck` definition.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "equals": {
          "description": "The output equals a value; or {value, path?, ignoreCase?}.",
          "anyOf": [{ "$ref": "#/$defs/equalsCheck" }, true]
        }
        """#, definitions: #"""
        "equalsCheck": {
          "type": "object", "additionalProperties": false, "required": ["value"],
          "properties": { "value": { "description": "The expected value." }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
        }
        """#)
    }

    /// An `EqualsEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { EqualsEvaluator(self) }
}

extension Expectation {
    /// The output equals a value.
    public static func equals(_ check: EqualsExpectation) -> Expectation { Expectation(check) }
}
