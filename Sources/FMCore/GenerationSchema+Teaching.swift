/// The schema mistakes that have one right form, each reported once at the key that is wrong, with that
/// form as the error's `example` (built from what was written, so the values stay the writer's own).
extension SchemaNodeDecoder {
    /// The JSON types a schema's `type` names.
    static let typeWords = "object, string, integer, number, boolean, null or array"

    /// The `anyOf` choices of the schema `content` (nil when it has no `anyOf`). A value that is not a list
    /// of schemas, or an `anyOf` beside a `type`, is one error at `anyOf` showing the form to write.
    static func anyOfChoices(_ reader: ObjectReader, _ content: GeneratedContent) throws -> [GeneratedContent]? {
        guard let value = reader.optional("anyOf") else { return nil }
        let path = reader.path("anyOf")
        let others = members(of: content).filter { $0.0 != "anyOf" && $0.0 != "type" }
        guard let choices = value.arrayValue else {
            let choice = value.orderedProperties != nil ? value : sampleChoice
            throw JSONFormatError(path: path,
                                  message: "expected `anyOf` to be a list of schemas, found \(a(value.typeName))",
                                  example: GeneratedContent(properties: [("anyOf", GeneratedContent([choice]))]))
        }
        if let type = valuesType(choices) {
            throw JSONFormatError(path: path, message: "expected `anyOf` to be a list of schemas, found a list of "
                + "\(choices[0].typeName)s; a choice among fixed values is an `enum`",
                example: GeneratedContent(properties: [("type", GeneratedContent(type)), ("enum", value)] + others))
        }
        if let wrong = choices.first(where: { $0.orderedProperties == nil }) {
            throw JSONFormatError(path: path, message: "expected `anyOf` to be a list of schemas, found "
                + "\(a(wrong.typeName)) among them; write each choice as a schema",
                example: GeneratedContent(properties: [("anyOf", GeneratedContent(choices.map(schemaChoice)))]))
        }
        if let type = reader.optional("type") {
            let typed = choices.map { choice -> GeneratedContent in
                guard choice["type"] == nil, choice["$ref"] == nil, choice["anyOf"] == nil else { return choice }
                return GeneratedContent(properties: [("type", type)] + members(of: choice))
            }
            throw JSONFormatError(path: path, message: "`anyOf` cannot stand beside `type`: each choice has its own "
                + "type; move `type` into the choices",
                example: GeneratedContent(properties: others + [("anyOf", GeneratedContent(typed))]))
        }
        return choices
    }

    /// A schema without `type`, `$ref` or `anyOf`: the error shows it with the type its keys imply.
    static func missingType(_ content: GeneratedContent, at path: String) -> JSONFormatError {
        let implied = impliedType(content)
        let reading = implied.map { "; its keys describe \(a($0)), so write `type: \($0)`" } ?? ""
        let typed = [("type", GeneratedContent(implied ?? "string"))] + members(of: content)
        return JSONFormatError(path: path, message: "a schema needs `type` (\(typeWords)), or `$ref` or `anyOf`"
                                   + reading, example: GeneratedContent(properties: typed))
    }

    /// The type a schema's keys imply when it names none (`enum` values, `properties`, `items`, bounds).
    static func impliedType(_ content: GeneratedContent) -> String? {
        if let values = content["enum"]?.arrayValue, let type = valuesType(values) { return type }
        if ["properties", "required", "x-order", "additionalProperties"].contains(where: { content[$0] != nil }) {
            return "object"
        }
        if ["items", "minItems", "maxItems"].contains(where: { content[$0] != nil }) { return "array" }
        if content["pattern"] != nil { return "string" }
        if content["minimum"] != nil || content["maximum"] != nil { return "number" }
        return nil
    }

    /// `string`, `integer` or `number` when every value is one of that type (nil for none, or a mix).
    static func valuesType(_ values: [GeneratedContent]) -> String? {
        guard !values.isEmpty else { return nil }
        if values.allSatisfy({ $0.stringValue != nil }) { return "string" }
        let numbers = values.compactMap(\.numberValue)
        guard numbers.count == values.count else { return nil }
        return numbers.allSatisfy { $0.rounded() == $0 } ? "integer" : "number"
    }

    /// A written `anyOf` entry as a schema: a schema stays, a value becomes the schema that allows only it.
    static func schemaChoice(_ entry: GeneratedContent) -> GeneratedContent {
        if entry.orderedProperties != nil { return entry }
        switch entry.kind {
        case .string, .number:
            let type = valuesType([entry]) ?? "string"
            return GeneratedContent(properties: [("type", GeneratedContent(type)), ("enum", GeneratedContent([entry]))])
        case .bool: return GeneratedContent(properties: [("type", "boolean")])
        case .null: return GeneratedContent(properties: [("type", "null")])
        default: return sampleChoice
        }
    }

    /// The choice an example shows when the written one is no schema at all.
    static let sampleChoice = GeneratedContent(properties: [
        ("type", "string"), ("enum", GeneratedContent(["a", "b"] as [GeneratedContent])),
    ])

    /// The members of an object, in order (none for any other value).
    static func members(of content: GeneratedContent) -> [(String, GeneratedContent)] {
        (content.orderedProperties ?? []).map { ($0.key, $0.value) }
    }

    /// "a string", "an object".
    static func a(_ word: String) -> String {
        (["a", "e", "i", "o", "u"].contains(word.first.map(String.init) ?? "") ? "an " : "a ") + word
    }
}
