import FMCore

/// `error`: the attempt ends in an error; null, a case name, or `{caseName?, messageContains?}`.
extension ErrorExpectation: ExpectationKind {
    /// `error`.
    public static let keyword = "error"

    /// Null is `{}` (any error); a scalar is `{caseName: …}`.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        if node.isNull { return node.makeMapping([]) }
        return node.isScalar ? node.wrapped(in: "caseName") : node
    }

    /// The `error` property and the `errorName` (a `LanguageModelError`) and `expectedErrorName` definitions.
    public static var jsonSchema: ExpectationSchemaFragment {
        func names(_ list: [String]) -> String { list.map { "\"\($0)\"" }.joined(separator: ", ") }
        return ExpectationSchemaFragment(properties: #"""
        "error": {
          "description": "The attempt ends in an error: its case name, or {caseName?, messageContains?}; empty accepts any error.",
          "anyOf": [
            { "type": "null" },
            { "$ref": "#/$defs/expectedErrorName" },
            {
              "type": "object", "additionalProperties": false,
              "properties": { "caseName": { "$ref": "#/$defs/expectedErrorName" }, "messageContains": { "type": "string", "description": "Text the message must contain." } }
            }
          ]
        }
        """#, definitions: #"""
        "errorName": {
          "description": "A LanguageModelError case name.",
          "enum": [\#(names(LanguageModelError.caseNames))]
        },
        "expectedErrorName": {
          "description": "The case name of an error an attempt can end in: LanguageModelError, LanguageModelSession.Error, parsingError (GeneratedContent.ParsingError) or SessionError.",
          "enum": [\#(names(ErrorTaxonomy.expectableNames + ErrorTaxonomy.deprecatedAliases.keys.sorted()))]
        }
        """#)
    }

    /// An unknown case name, with did-you-mean or the Foundation Models 27 name of a 26 one.
    public var problems: [String] {
        guard let caseName else { return [] }
        return ErrorTaxonomy.problem(with: caseName, known: ErrorTaxonomy.expectableNames, what: "error name").map { [$0] } ?? []
    }

    /// The model's errors, and an infrastructure error only when named (a scripted rate limit): an unnamed
    /// `error` is never met by a fault of the engine, tool or network.
    public func covers(errorNamed caseName: String, class failureClass: FailureClass) -> Bool {
        failureClass == .modelBehavior || self.caseName.map(ErrorTaxonomy.canonical) == caseName
    }

    /// Whether the named error is retryable infrastructure (`rateLimited`, `timeout`).
    public var namesRetryableError: Bool {
        caseName.map { ErrorTaxonomy.isRetryable(ErrorTaxonomy.canonical($0)) } ?? false
    }

    /// An `ErrorEvaluator`.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator { ErrorEvaluator(self) }
}

extension Expectation {
    /// The attempt ends in an expected error.
    public static func error(_ check: ErrorExpectation) -> Expectation { Expectation(check) }
}
