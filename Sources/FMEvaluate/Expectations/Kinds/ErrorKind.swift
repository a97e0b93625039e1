/// `error`: the attempt ends in an error; null, a case name, or `{caseName?, messageContains?}`.
extension ErrorExpectation: ExpectationKind {
    /// `error`.
    public static let keyword = "error"

    /// Null is `{}` (any error); a scalar is `{caseName: …}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        if node.isNull { return node.makeMapping([]) }
        return node.isScalar ? node.wrapped(in: "caseName") : node
    }

    /// The `error` property and the `errorName` definition.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "error": {
          "description": "The attempt ends in an error: its case name, or {caseName?, messageContains?}; empty accepts any error.",
          "anyOf": [
            { "type": "null" },
            { "$ref": "#/$defs/errorName" },
            {
              "type": "object", "additionalProperties": false,
              "properties": { "caseName": { "$ref": "#/$defs/errorName" }, "messageContains": { "type": "string", "description": "Text the message must contain." } }
            }
          ]
        }
        """#, definitions: #"""
        "errorName": {
          "description": "A LanguageModelError case name.",
          "enum": ["contextSizeExceeded", "rateLimited", "refusal", "timeout", "guardrailViolation", "unsupportedCapability",
                   "unsupportedTranscriptContent", "unsupportedGenerationGuide", "unsupportedLanguageOrLocale"]
        }
        """#)
    }

    /// Always: the error is what this expectation scores.
    public var expectsError: Bool { true }

    /// An `ErrorEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { ErrorEvaluator(self) }
}

extension Expectation {
    /// The attempt ends in an expected error.
    public static func error(_ check: ErrorExpectation) -> Expectation { Expectation(check) }
}
