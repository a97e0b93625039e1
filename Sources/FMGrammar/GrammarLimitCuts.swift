import FMCore

/// Finds where a grammar's loop guards cut the choices of a generated document: the places where the
/// output reached a guard's limit, so the grammar no longer offered what the schema allows there.
///
/// - `maximumStringBytes`: a free string (no `enum` or `pattern`) whose escaped body holds the limit or more.
/// - `maximumUnboundedItems`: an array without `maxItems` holding `max(limit, minItems)` elements.
/// - `maximumRecursionDepth`: a value whose schema offered a level of a recursive definition deeper than
///   the limit (an `anyOf` branch, an optional property, the elements of an array that may be empty):
///   the grammar left that choice out, whatever the model then wrote.
public struct GrammarLimitCuts {
    private let schema: GenerationSchema
    private let options: GrammarOptions
    private let namespace: Int
    private let tool: String?
    private var cuts: [GrammarLimitCut] = []

    /// The cuts in `content`, generated under `options` for `schema` — the response schema, or the
    /// parameters of `tool` when the document is that tool call's arguments.
    public static func find(in content: GeneratedContent, schema: GenerationSchema, options: GrammarOptions,
                            tool: String? = nil) -> [GrammarLimitCut] {
        var finder = GrammarLimitCuts(schema: schema, options: options, namespace: tool == nil ? 0 : 1, tool: tool)
        finder.walk(content, .init(.reference("#")), path: "", active: [])
        return finder.cuts
    }

    private mutating func record(_ path: String, _ cut: GrammarLimitCut.Guard, _ limit: Int) {
        let found = GrammarLimitCut(path: path, guard: cut, limit: limit, tool: tool)
        if !cuts.contains(found) { cuts.append(found) }
    }

    private mutating func walk(_ value: GeneratedContent, _ node: GenerationSchema.Node, path: String, active: [String]) {
        switch node.kind {
        case .reference(let name):
            guard let target = schema.definition(named: name) else { return }
            walk(value, target, path: path, active: isContainer(target) ? active + [name] : active)
        case .anyOf(let choices):
            if !options.enforcesStringChoices(namespace: namespace) && choices.allSatisfy(\.isStringChoice) {
                freeString(value, path: path)
                return
            }
            if choices.contains(where: { isCut($0, active: active) }), let limit = options.maximumRecursionDepth {
                record(path, .maximumRecursionDepth, limit)
            }
            let open = choices.filter { !isCut($0, active: active) }
            if let choice = open.first(where: { fits(value, $0) }) ?? open.first {
                walk(value, choice, path: path, active: active)
            }
        case .object(let object):
            guard case .structure(let properties, _) = value.kind else { return }
            for property in object.properties {
                let propertyPath = jsonPointer(path, property.name)
                if let member = properties[property.name] {
                    walk(member, property.node, path: propertyPath, active: active)
                } else if !property.isRequired, isCut(property.node, active: active), let limit = options.maximumRecursionDepth {
                    record(propertyPath, .maximumRecursionDepth, limit)
                }
            }
        case .array(let array):
            guard case .array(let elements) = value.kind else { return }
            if isCut(array.items, active: active), let limit = options.maximumRecursionDepth {
                record(path, .maximumRecursionDepth, limit)
            }
            if array.maxItems == nil, let limit = options.maximumUnboundedItems, elements.count >= max(limit, array.minItems ?? 0) {
                record(path, .maximumUnboundedItems, max(limit, array.minItems ?? 0))
            }
            for (index, element) in elements.enumerated() {
                walk(element, array.items, path: jsonPointer(path, String(index)), active: active)
            }
        case .string(let string):
            if string.choices == nil && string.pattern == nil || !options.enforcesStringChoices(namespace: namespace) && string.choices != nil {
                freeString(value, path: path)
            }
        case .integer, .number, .boolean, .null:
            break
        }
    }

    private mutating func freeString(_ value: GeneratedContent, path: String) {
        guard let limit = options.maximumStringBytes, case .string(let text) = value.kind else { return }
        if GeneratedContent.quoted(text).utf8.count - 2 >= limit { record(path, .maximumStringBytes, limit) }
    }

    /// True for an object or array definition (a rule of its own, so recursion through it is counted).
    private func isContainer(_ node: GenerationSchema.Node) -> Bool {
        switch node.kind {
        case .object, .array: return true
        default: return false
        }
    }

    /// True when the grammar could not generate `node` here: it needs a level of a recursive definition
    /// deeper than `maximumRecursionDepth` (as `SchemaCompiler` counts it).
    private func isCut(_ node: GenerationSchema.Node, active: [String], seen: Set<String> = []) -> Bool {
        guard let limit = options.maximumRecursionDepth else { return false }
        switch node.kind {
        case .reference(let name):
            guard let target = schema.definition(named: name) else { return false }
            if isContainer(target) { return active.filter { $0 == name }.count > limit }
            guard !seen.contains(name) else { return false }
            return isCut(target, active: active, seen: seen.union([name]))
        case .anyOf(let choices):
            return choices.allSatisfy { isCut($0, active: active, seen: seen) }
        case .object(let object):
            return object.properties.contains { $0.isRequired && isCut($0.node, active: active, seen: seen) }
        case .array(let array):
            return (array.minItems ?? 0) > 0 && isCut(array.items, active: active, seen: seen)
        default:
            return false
        }
    }

    /// Whether `value` has the shape of `node` (its JSON type; a string's `enum`; an object's keys).
    private func fits(_ value: GeneratedContent, _ node: GenerationSchema.Node, seen: Set<String> = []) -> Bool {
        switch (node.kind, value.kind) {
        case (.reference(let name), _):
            guard !seen.contains(name), let target = schema.definition(named: name) else { return false }
            return fits(value, target, seen: seen.union([name]))
        case (.anyOf(let choices), _):
            return choices.contains { fits(value, $0, seen: seen) }
        case (.object(let object), .structure(let properties, _)):
            return properties.keys.allSatisfy { object.property(named: $0) != nil }
        case (.string(let string), .string(let text)):
            return string.choices?.contains(text) ?? true
        case (.array, .array), (.boolean, .bool), (.null, .null):
            return true
        case (.integer, .number(let number)):
            return number.rounded() == number
        case (.number, .number):
            return true
        default:
            return false
        }
    }
}
