/// `not`: the one expectation inside does not hold.
public struct NotExpectation: ExpectationKind {
    /// The inverted expectation.
    public var inner: Expectation

    /// Inverts `inner`.
    public init(_ inner: Expectation) {
        self.inner = inner
    }

    /// Decodes the inner `{KIND: PAYLOAD}`.
    public init(from decoder: Decoder) throws {
        inner = try Expectation(from: decoder)
    }

    /// Encodes the inner `{KIND: PAYLOAD}`.
    public func encode(to encoder: Encoder) throws {
        try inner.encode(to: encoder)
    }

    /// `not`.
    public static let keyword = "not"

    /// The payload is one expectation, itself written with its kind's shorthand.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        guard node.mappingKeys?.count == 1 else {
            reader.report(node, "not needs exactly one expectation inside, e.g. not: {contains: forbidden}")
            return nil
        }
        return reader.expandNestedExpectation(node)
    }

    /// The `not` property.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "not": { "$ref": "#/$defs/expectations", "description": "Any one expectation, inverted.", "minProperties": 1, "maxProperties": 1 }
        """#)
    }

    /// The inner expectation's problems.
    public var problems: [String] { inner.problems.map { "not: \($0)" } }

    /// The inner expectation's judge engines.
    public var judgeEngines: [JudgeEngineChoice] { inner.judgeEngines }

    /// Whether the inner expectation needs the requested schema.
    public var needsRequestedSchema: Bool { inner.needsRequestedSchema }

    /// A `NotEvaluator` over the inner expectation's evaluator.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { NotEvaluator(inner.evaluator(in: environment)) }
}

extension Expectation {
    /// The inner expectation does not hold.
    public static func not(_ inner: Expectation) -> Expectation { Expectation(NotExpectation(inner)) }
}
