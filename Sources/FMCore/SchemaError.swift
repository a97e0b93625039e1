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
    /// A `pattern` outside the supported regular-expression subset (see `RegexPattern`).
    case invalidPattern(schema: String, pattern: String, reason: String, path: String)
    /// A `$ref` that only leads to more references and never to a schema (e.g. A → B → A).
    case circularReference(schema: String, reference: String, path: String)
    /// Bounds no value can meet: `minimum` above `maximum`, or `minItems` above `maxItems`.
    case unsatisfiableBounds(schema: String, detail: String, path: String)

    /// The JSON pointer of the offending node.
    public var path: String {
        switch self {
        case .duplicateProperty(_, _, let path), .duplicateType(_, let path), .emptyTypeChoices(_, let path),
             .undefinedReferences(_, _, let path), .invalidPattern(_, _, _, let path), .circularReference(_, _, let path),
             .unsatisfiableBounds(_, _, let path):
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
        case .circularReference(let schema, let reference, let path):
            return .circularReference(schema: schema, reference: reference, path: prefix + path)
        case .unsatisfiableBounds(let schema, let detail, let path):
            return .unsatisfiableBounds(schema: schema, detail: detail, path: prefix + path)
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
            return "schema '\(schema)' has pattern \(GeneratedContent.quoted(pattern)) that is not a valid pattern (\(location)): \(reason); patterns are compiled to an automaton, so constructs that need backtracking are refused"
        case .circularReference(let schema, let reference, _):
            return "schema '\(schema)' refers to '\(reference)', which only refers on in a circle and never reaches a schema (\(location)); make one of the types in the cycle a real schema"
        case .unsatisfiableBounds(let schema, let detail, _):
            return "schema '\(schema)' has bounds no value can meet: \(detail) (\(location)); swap or correct them"
        }
    }
}

/// Walks a schema once and reports its `SchemaError`s: the first (`check`) or all of them (`problems`).
struct SchemaChecker {
    let schema: GenerationSchema

    /// Throws the first problem.
    func check() throws {
        if let first = problems().first { throw first }
    }

    /// Every problem, in the order the walk meets them (undefined references last, as one problem).
    func problems() -> [SchemaError] {
        var found: [SchemaError] = []
        var undefined: [String] = []
        var firstUndefinedPath = ""
        var firstUndefinedSchema = ""
        func visit(_ node: GenerationSchema.Node, path: String, owner: String) {
            let owner = node.title ?? owner
            switch node.kind {
            case .object(let object):
                var seen = Set<String>()
                for property in object.properties {
                    guard seen.insert(property.name).inserted else {
                        found.append(.duplicateProperty(schema: owner, property: property.name, path: jsonPointer(path, "properties")))
                        continue
                    }
                    visit(property.node, path: jsonPointer(jsonPointer(path, "properties"), property.name), owner: owner)
                }
            case .string(let string):
                if let choices = string.choices, choices.isEmpty {
                    found.append(.emptyTypeChoices(schema: owner, path: path))
                }
                if let pattern = string.pattern {
                    do {
                        _ = try RegexPattern(pattern)
                    } catch let error as PatternSyntaxError {
                        found.append(.invalidPattern(schema: owner, pattern: pattern, reason: error.description, path: jsonPointer(path, "pattern")))
                    } catch {
                        found.append(.invalidPattern(schema: owner, pattern: pattern, reason: "\(error)", path: jsonPointer(path, "pattern")))
                    }
                }
            case .array(let array):
                if let negative = [array.minItems, array.maxItems].compactMap({ $0 }).first(where: { $0 < 0 }) {
                    found.append(.unsatisfiableBounds(schema: owner, detail: "an element count of \(negative) is negative", path: path))
                } else if let minimum = array.minItems, let maximum = array.maxItems, minimum > maximum {
                    found.append(.unsatisfiableBounds(schema: owner, detail: "minItems \(minimum) is above maxItems \(maximum)", path: path))
                }
                visit(array.items, path: jsonPointer(path, "items"), owner: owner)
            case .integer(let bounds), .number(let bounds):
                if let minimum = bounds.minimum, let maximum = bounds.maximum, minimum > maximum {
                    found.append(.unsatisfiableBounds(schema: owner, detail: "minimum \(GeneratedContent.format(number: minimum)) is above maximum \(GeneratedContent.format(number: maximum))", path: path))
                } else if case .integer = node.kind, let minimum = bounds.minimum, let maximum = bounds.maximum, minimum.rounded(.up) > maximum.rounded(.down) {
                    found.append(.unsatisfiableBounds(schema: owner, detail: "no integer lies between \(GeneratedContent.format(number: minimum)) and \(GeneratedContent.format(number: maximum))", path: path))
                }
            case .reference(let name):
                if schema.definition(named: name) != nil && schema.resolve(node) == nil {
                    found.append(.circularReference(schema: owner, reference: name, path: jsonPointer(path, "$ref")))
                }
                if schema.definition(named: name) == nil && !undefined.contains(name) {
                    if undefined.isEmpty {
                        firstUndefinedPath = jsonPointer(path, "$ref")
                        firstUndefinedSchema = owner
                    }
                    undefined.append(name)
                }
            case .anyOf(let choices):
                if choices.isEmpty { found.append(.emptyTypeChoices(schema: owner, path: path)) }
                for (position, choice) in choices.enumerated() {
                    visit(choice, path: jsonPointer(jsonPointer(path, "anyOf"), String(position)), owner: owner)
                }
            case .boolean, .null:
                break
            }
        }
        visit(schema.root, path: "", owner: schema.root.title ?? "root")
        for definition in schema.definitions {
            visit(definition.node, path: jsonPointer("/$defs", definition.name), owner: definition.name)
        }
        if !undefined.isEmpty {
            found.append(.undefinedReferences(schema: firstUndefinedSchema, references: undefined, path: firstUndefinedPath))
        }
        return found
    }
}

extension GenerationSchema {
    /// Apple's spelling: `GenerationSchema.SchemaError`.
    public typealias SchemaError = FMCore.SchemaError
}
