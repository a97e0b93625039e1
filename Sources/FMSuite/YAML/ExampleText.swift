import FMCore

/// The right form an error teaches (`JSONFormatError.example`), written in the syntax of the file it is
/// about: YAML block style (lists of plain values in flow style) for a YAML file, compact JSON for JSON.
enum ExampleText {
    /// The example as lines, each to be indented under the message.
    static func lines(_ example: GeneratedContent, json: Bool) -> [String] {
        json ? [example.jsonString] : yaml(example)
    }

    /// YAML lines of `content`.
    static func yaml(_ content: GeneratedContent) -> [String] {
        if let flow = flow(content) { return [flow] }
        if let items = content.arrayValue { return items.flatMap(item) }
        return (content.orderedProperties ?? []).flatMap { key, value -> [String] in
            if let flow = flow(value) { return ["\(key): \(flow)"] }
            return ["\(key):"] + yaml(value).map { "  " + $0 }
        }
    }

    /// One `- ` item of a block list.
    private static func item(_ value: GeneratedContent) -> [String] {
        let lines = yaml(value)
        return ["- " + lines[0]] + lines.dropFirst().map { "  " + $0 }
    }

    /// A scalar, an empty collection or a list of scalars on one line; nil for anything with structure.
    private static func flow(_ value: GeneratedContent) -> String? {
        if let items = value.arrayValue {
            let scalars = items.compactMap { $0.arrayValue == nil && $0.orderedProperties == nil ? scalar($0) : nil }
            return scalars.count == items.count ? "[" + scalars.joined(separator: ", ") + "]" : nil
        }
        if let members = value.orderedProperties { return members.isEmpty ? "{}" : nil }
        return scalar(value)
    }

    /// A plain scalar when YAML reads it back as the same string, else its JSON form (valid YAML too).
    private static func scalar(_ value: GeneratedContent) -> String {
        guard let text = value.stringValue else { return value.jsonString }
        let reserved = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]
        let plain = text.first.map { $0.isASCII && $0.isLetter } == true && text.last != " "
            && !reserved.contains(text.lowercased())
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " _-./".contains($0)) }
        return plain ? text : value.jsonString
    }
}
