import FMEvaluate

/// The expectation definitions of the suite JSON Schema (`expect` and every kind), between the suite
/// and tool definitions and the scripted engine's; each kind's part comes from the registry given.
extension SuiteJSONSchema {
    /// The `expect` … last kind's members of `$defs` for `registry`'s kinds, each line ending as in the
    /// whole schema.
    static func expectationDefinitions(_ registry: ExpectationRegistry) -> String {
        let fragments = registry.kinds.map { $0.jsonSchema }
        let properties = fragments.map(\.properties).joined(separator: ",\n")
        let definitions = fragments.map(\.definitions).filter { !$0.isEmpty }.map { $0 + "," }
        return ([expectationsHead, indented(properties, by: 8), expectationsTail] + definitions.map { indented($0, by: 4) })
            .joined(separator: "\n")
    }

    /// `text` with every line indented by `width` spaces.
    static func indented(_ text: String, by width: Int) -> String {
        let margin = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { margin + $0 }.joined(separator: "\n")
    }

    /// `expect` and the start of `expectations`, up to its kinds.
    private static let expectationsHead = #"""
        "expect": {
          "description": "Expectations: a list of mappings naming a kind, or one mapping with a key per expectation.",
          "anyOf": [
            { "type": "null" },
            { "$ref": "#/$defs/expectations" },
            { "type": "array", "items": { "$ref": "#/$defs/expectations", "minProperties": 1 } }
          ]
        },
        "expectations": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
    """#

    /// The end of `expectations` and the definitions every kind may use.
    private static let expectationsTail = #"""
          }
        },
        "pointer": { "type": "string", "description": "A JSON pointer (such as /team) selecting a part of structured output." },
        "ignoreCase": { "type": "boolean", "description": "Compare text case-insensitively." },
    """#
}
