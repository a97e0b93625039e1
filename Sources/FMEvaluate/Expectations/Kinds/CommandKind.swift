/// `command`: an external program judges the response; argv, or `{argv, timeoutSeconds?, name?}`.
extension CommandConfig: ExpectationKind {
    /// `command`.
    public static let keyword = "command"

    /// A list is `{argv: […]}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        node.isSequence ? node.wrapped(in: "argv") : node
    }

    /// The `command` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "command": {
          "description": "An external program judges the response (subject as JSON on stdin, one JSON metric on stdout); argv, or {argv, timeoutSeconds?, name?}.",
          "anyOf": [
            { "type": "array", "minItems": 1, "items": { "type": "string" } },
            {
              "type": "object", "additionalProperties": false, "required": ["argv"],
              "properties": {
                "argv": { "type": "array", "minItems": 1, "items": { "type": "string" } },
                "timeoutSeconds": { "type": "number", "exclusiveMinimum": 0, "description": "Default 30." },
                "name": { "type": "string", "description": "The metric's name (default command)." }
              }
            }
          ]
        }
        """#)
    }

    /// A `CommandEvaluator` in the environment's directory, with its command policy.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator {
        CommandEvaluator(self, workingDirectory: environment.workingDirectory, commands: environment.commands)
    }
}

extension Expectation {
    /// An external program judges the response.
    public static func command(_ config: CommandConfig) -> Expectation { Expectation(config) }
}
