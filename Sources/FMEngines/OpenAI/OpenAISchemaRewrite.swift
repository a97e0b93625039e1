import FMCore

/// JSON Schema as servers accept it in `response_format`: llama-server resolves only references into
/// `$defs` ("only references into the same document are supported" for `"$ref": "#"`), so a schema
/// whose root refers to itself is sent as a reference to a `$defs` entry holding the root. The
/// schema the session validates against is never changed; only the request carries the rewrite.
enum OpenAISchemaRewrite {
    /// `schema` with every `"$ref": "#"` pointing at a `$defs` entry that holds the root (named for its
    /// title, else `Root`; the root's own `$defs` move beside it); `schema` unchanged when nothing refers to the root.
    static func rootRecursionAsDefinition(_ schema: GeneratedContent) -> GeneratedContent {
        guard let members = schema.orderedProperties, refersToRoot(schema) else { return schema }
        let existing = members.first { $0.key == "$defs" }?.value.orderedProperties ?? []
        let title = members.first { $0.key == "title" }?.value.stringValue ?? "Root"
        var name = title.isEmpty ? "Root" : title
        while existing.contains(where: { $0.key == name }) { name += "_" }
        let target = GeneratedContent("#/$defs/\(name)")
        let body = members.filter { $0.key != "$defs" }.map { ($0.key, retarget($0.value, to: target)) }
        let definitions = existing.map { ($0.key, retarget($0.value, to: target)) } + [(name, GeneratedContent(properties: body))]
        return GeneratedContent(properties: [("$ref", target), ("$defs", GeneratedContent(properties: definitions))])
    }

    /// Whether any `$ref` in `node` is `#`.
    private static func refersToRoot(_ node: GeneratedContent) -> Bool {
        if let members = node.orderedProperties {
            return members.contains { ($0.key == "$ref" && $0.value.stringValue == "#") || refersToRoot($0.value) }
        }
        return node.arrayValue?.contains(where: refersToRoot) ?? false
    }

    /// `node` with every `"$ref": "#"` replaced by `target`.
    private static func retarget(_ node: GeneratedContent, to target: GeneratedContent) -> GeneratedContent {
        if let members = node.orderedProperties {
            return GeneratedContent(properties: members.map { member in
                member.key == "$ref" && member.value.stringValue == "#" ? (member.key, target) : (member.key, retarget(member.value, to: target))
            })
        }
        if let elements = node.arrayValue { return GeneratedContent(elements.map { retarget($0, to: target) }) }
        return node
    }
}
