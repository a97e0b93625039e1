/// What the on-device decoder refuses in a schema that fmeval's reader accepts (`schema check --dialect
/// device`). Measured against `JSONDecoder().decode(GenerationSchema.self, …)` on FM 27 and published:
/// an object without `title`, `required`, `x-order` or `additionalProperties` is `keyNotFound`. (An `x-order`
/// that leaves out a property is refused by fmeval's own reader, in every dialect: the device would never
/// generate that property.)
public enum DeviceSchemaDialect {
    /// Where the refusals come from, named in every message.
    public static let source = "Foundation Models 27's GenerationSchema decoder (keyNotFound), as measured and published"

    /// Every refusal in `content`, each located by its JSON pointer; empty when the device would decode it.
    public static func problems(in content: GeneratedContent) -> [JSONFormatError] {
        var problems: [JSONFormatError] = []
        visit(content, at: "", into: &problems)
        return problems
    }

    private static func visit(_ content: GeneratedContent, at path: String, into problems: inout [JSONFormatError]) {
        guard case .structure(let members, _) = content.kind else { return }
        if members["type"]?.stringValue == "object" { checkObject(members, at: path, into: &problems) }
        for key in ["properties", "$defs"] {
            for (name, child) in members[key]?.orderedProperties ?? [] {
                visit(child, at: jsonPointer(jsonPointer(path, key), name), into: &problems)
            }
        }
        if let items = members["items"] { visit(items, at: jsonPointer(path, "items"), into: &problems) }
        for (index, choice) in (members["anyOf"]?.arrayValue ?? []).enumerated() {
            visit(choice, at: jsonPointer(jsonPointer(path, "anyOf"), String(index)), into: &problems)
        }
    }

    private static func checkObject(_ members: [String: GeneratedContent], at path: String, into problems: inout [JSONFormatError]) {
        for key in ["title", "required", "x-order", "additionalProperties"] where members[key] == nil {
            problems.append(JSONFormatError(path: path, message: "the device refuses an object without \"\(key)\" (\(source)); "
                + "add \"\(key)\"" + (key == "title" ? " naming the type" : "")))
        }
    }
}
