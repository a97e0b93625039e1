/// A generation schema that cannot be built; thrown when a `GenerationSchema` is constructed or decoded.
///
/// `path` is the JSON pointer of the offending node in the schema's JSON form.
public enum SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An object names the same property twice.
    case duplicateProperty(schema: String, property: String, path: String)
    /// Two definitions (or a definition and the root) share a type name.
    case duplicateType(type: String, path: String)
    /// An `enum` or `anyOf` with no choices: nothing could be generated.
    case emptyTypeChoices(schema: String, path: String)
    /// `$ref`s to names that are not defined.
    case undefinedReferences(schema: String, references: [String], path: String)
    /// A `pattern` that is not a valid regular expression.
    case invalidPattern(schema: String, pattern: String, reason: String, path: String)

    /// The JSON pointer of the offending node.
    public var path: String {
        switch self {
        case .duplicateProperty(_, _, let path), .duplicateType(_, let path), .emptyTypeChoices(_, let path),
             .undefinedReferences(_, _, let path), .invalidPattern(_, _, _, let path):
            return path
        }
    }

    /// The same error with `prefix` (a JSON pointer) put in front of its path.
    public func rebased(under prefix: String) -> SchemaError {
        switch self {
        case .duplicateProperty(let schema, let property, let path):
            return .duplicateProperty(schema: schema, property: property, path: prefix + path)
        case .duplicateType(let type, let path):
            return .duplicateType(type: type, path: prefix + path)
        case .emptyTypeChoices(let schema, let path):
            return .emptyTypeChoices(schema: schema, path: prefix + path)
        case .undefinedReferences(let schema, let references, let path):
            return .undefinedReferences(schema: schema, references: references, path: prefix + path)
        case .invalidPattern(let schema, let pattern, let reason, let path):
            return .invalidPattern(schema: schema, pattern: pattern, reason: reason, path: prefix + path)
        }
    }

    /// A sentence naming the offending name and what to do.
    public var description: String {
        let location = path.isEmpty ? "at the schema root" : "at \(path)"
        switch self {
        case .duplicateProperty(let schema, let property, _):
            return "schema '\(schema)' declares property '\(property)' more than once (\(location)); give each property a unique name"
        case .duplicateType(let type, _):
            return "type name '\(type)' is defined more than once (\(location)); give each type a unique name"
        case .emptyTypeChoices(let schema, _):
            return "schema '\(schema)' offers no choices (\(location)); an enum or anyOf needs at least one"
        case .undefinedReferences(let schema, let references, _):
            let names = references.map { "'\($0)'" }.joined(separator: ", ")
            return "schema '\(schema)' refers to undefined type\(references.count == 1 ? "" : "s") \(names) (\(location)); define \(references.count == 1 ? "it" : "them") in $defs (or as a dependency)"
        case .invalidPattern(let schema, let pattern, let reason, _):
            return "schema '\(schema)' has pattern \(GeneratedContent.quoted(pattern)) that is not a valid regular expression (\(location)): \(reason)"
        }
    }
}

/// Walks a schema once and reports the first `SchemaError` in it.
struct SchemaChecker {
    let schema: GenerationSchema

    func check() throws {
        var undefined: [String] = []
        var firstUndefinedPath = ""
        var firstUndefinedSchema = ""
        func visit(_ node: GenerationSchema.Node, path: String, owner: String) throws {
            let owner = node.title ?? owner
            switch node.kind {
            case .object(let object):
                var seen = Set<String>()
                for property in object.properties {
                    guard seen.insert(property.name).inserted else {
                        throw SchemaError.duplicateProperty(schema: owner, property: property.name, path: jsonPointer(path, "properties"))
                    }
                    try visit(property.node, path: jsonPointer(jsonPointer(path, "properties"), property.name), owner: owner)
                }
            case .string(let string):
                if let choices = string.choices, choices.isEmpty {
                    throw SchemaError.emptyTypeChoices(schema: owner, path: path)
                }
                if let pattern = string.pattern {
                    do {
                        _ = try Regex(pattern)
                    } catch {
                        throw SchemaError.invalidPattern(schema: owner, pattern: pattern, reason: "\(error)", path: jsonPointer(path, "pattern"))
                    }
                }
            case .array(let array):
                try visit(array.items, path: jsonPointer(path, "items"), owner: owner)
            case .reference(let name):
                if schema.definition(named: name) == nil && !undefined.contains(name) {
                    if undefined.isEmpty {
                        firstUndefinedPath = jsonPointer(path, "$ref")
                        firstUndefinedSchema = owner
                    }
                    undefined.append(name)
                }
            case .anyOf(let choices):
                if choices.isEmpty { throw SchemaError.emptyTypeChoices(schema: owner, path: path) }
                for (position, choice) in choices.enumerated() {
                    try visit(choice, path: jsonPointer(jsonPointer(path, "anyOf"), String(position)), owner: owner)
                }
            case .integer, .number, .boolean, .null:
                break
            }
        }
        try visit(schema.root, path: "", owner: schema.root.title ?? "root")
        for definition in schema.definitions {
            try visit(definition.node, path: jsonPointer("/$defs", definition.name), owner: definition.name)
        }
        if !undefined.isEmpty {
            throw SchemaError.undefinedReferences(schema: firstUndefinedSchema, references: undefined, path: firstUndefinedPath)
        }
    }
}
