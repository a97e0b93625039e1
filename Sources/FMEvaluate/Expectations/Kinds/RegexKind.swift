/// `regex`: a pattern, or `{pattern, path?, ignoreCase?}`.
extension RegexExpectation: ExpectationKind {
    /// `regex`.
    public static let keyword = "regex"

    /// A scalar becomes `{pattern: …}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        node.isScalar ? node.wrapped(in: "pattern") : node
    }

    /// The `regex` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "regex": {
          "description": "The output text matches a regular expression; or {pattern, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "string" },
            {
              "type": "object", "additionalProperties": false, "required": ["pattern"],
              "properties": { "pattern": { "type": "string" }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        }
        """#)
    }

    /// A pattern that does not compile.
    public var problems: [String] { patternProblem.map { [$0] } ?? [] }

    /// A `RegexEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { RegexEvaluator(self) }
}

extension Expectation {
    /// The output text matches a regular expression.
    public static func regex(_ check: RegexExpectation) -> Expectation { Expectation(check) }
}
