/// `constraints` (synonym `schema`): violations of a GenerationSchema within budgets.
extension ConstraintExpectation: ExpectationKind {
    /// `constraints`.
    public static let keyword = "constraints"

    /// `schema`, whose payload may also be the schema alone.
    public static var synonyms: [String] { ["schema"] }

    /// Null is `{}`; under `schema`, a path or a mapping that is not just budgets is `{schema: …}`;
    /// a schema given as a file path is replaced by the file's nodes.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        if node.isNull { return node.makeMapping([]) }
        let budgetKeys: Set<String> = ["schema", "maxViolations", "maxViolationsPerKeyword"]
        var payload = node
        if keyword == "schema", node.isScalar || node.mappingKeys.map({ !Set($0).isSubset(of: budgetKeys) }) == true {
            payload = node.wrapped(in: "schema")
        }
        guard let schema = payload["schema"] else { return payload }
        guard let resolved = reader.generationSchema(schema, what: "\(keyword) schema") else { return nil }
        return payload.replacing("schema", with: resolved)
    }

    /// The `constraints` and `schema` properties and the `constraints` definition.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "constraints": { "$ref": "#/$defs/constraints", "description": "Schema violations within budgets, against the requested schema unless schema is given." },
        "schema": {
          "description": "Violations of this schema (a file path, an inline schema, or {schema, maxViolations?, maxViolationsPerKeyword?}).",
          "anyOf": [{ "type": "string" }, { "$ref": "#/$defs/constraints" }, { "$ref": "#/$defs/generationSchema" }]
        }
        """#, definitions: #"""
        "constraints": {
          "anyOf": [
            { "type": "null" },
            {
              "type": "object", "additionalProperties": false,
              "properties": {
                "schema": { "$ref": "#/$defs/schemaOrFile" },
                "maxViolations": { "type": "integer", "minimum": 0, "description": "Most violations allowed (default 0)." },
                "maxViolationsPerKeyword": { "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 }, "description": "Most violations per schema keyword, e.g. {enum: 0}." }
              }
            }
          ]
        }
        """#)
    }

    /// Without a schema of its own it checks the schema the attempt requested.
    public var needsRequestedSchema: Bool { schema == nil }

    /// A `ConstraintsEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { ConstraintsEvaluator(self) }
}

extension Expectation {
    /// Violations of a GenerationSchema stay within budgets.
    public static func constraints(_ check: ConstraintExpectation) -> Expectation { Expectation(check) }
}
