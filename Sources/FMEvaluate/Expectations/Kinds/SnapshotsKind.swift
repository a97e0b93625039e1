/// `snapshots`: how many snapshots were streamed; exactly N, or `{minimum?, maximum?}`.
extension SnapshotExpectation: ExpectationKind {
    /// `snapshots`.
    public static let keyword = "snapshots"

    /// A number N is `{minimum: N, maximum: N}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        guard node.isScalar, !node.isNull else { return node }
        return node.makeMapping([("minimum", node), ("maximum", node)])
    }

    /// The `snapshots` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "snapshots": {
          "description": "Streamed snapshots: exactly N, or {minimum?, maximum?}.",
          "anyOf": [
            { "type": "integer", "minimum": 0 },
            { "type": "object", "additionalProperties": false, "properties": { "minimum": { "type": "integer", "minimum": 0 }, "maximum": { "type": "integer", "minimum": 0 } } }
          ]
        }
        """#)
    }

    /// A `SnapshotsEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { SnapshotsEvaluator(self) }
}

extension Expectation {
    /// The number of streamed snapshots is within bounds.
    public static func snapshots(_ check: SnapshotExpectation) -> Expectation { Expectation(check) }
}
