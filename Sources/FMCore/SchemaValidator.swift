/// One way an instance breaks its schema.
public struct Violation: Hashable, Sendable {
    /// The schema keyword that is broken.
    public enum Keyword: String, Hashable, Sendable, Codable, CaseIterable {
        /// The value has the wrong JSON type (or a fraction, or a decimal such as `5.0`, where an integer is required).
        case type
        /// A string is not one of the allowed choices.
        case `enum`
        /// A required property is missing.
        case required
        /// A property the schema does not declare is present.
        case additionalProperties
        /// A number is below the minimum.
        case minimum
        /// A number is above the maximum.
        case maximum
        /// An array has too few elements.
        case minItems
        /// An array has too many elements.
        case maxItems
        /// A string does not match the pattern (patterns match the whole string).
        case pattern
        /// A value matches none of the `anyOf` choices.
        case anyOf
    }

    /// JSON pointer of the offending value in the instance (for `required`, of the missing property).
    public var path: String
    /// The keyword broken.
    public var keyword: Keyword
    /// What the schema asks for (a type name, the choices, a bound, a pattern, a property name).
    public var expected: GeneratedContent
    /// What the instance has.
    public var actual: GeneratedContent
    /// A sentence for people.
    public var message: String

    /// Creates a violation.
    public init(path: String, keyword: Keyword, expected: GeneratedContent, actual: GeneratedContent, message: String) {
        self.path = path
        self.keyword = keyword
        self.expected = expected
        self.actual = actual
        self.message = message
    }

    /// `{"path", "keyword", "expected", "actual", "message"}`.
    public var content: GeneratedContent {
        GeneratedContent(properties: [("path", GeneratedContent(path)), ("keyword", GeneratedContent(keyword.rawValue)),
                                      ("expected", expected), ("actual", actual), ("message", GeneratedContent(message))])
    }
}

extension Violation: Codable {
    private enum CodingKeys: String, CodingKey { case path, keyword, expected, actual, message }
}

/// Checks generated content against a generation schema and reports every violation, not just the first.
public enum SchemaValidator {
    /// Every violation of `schema` in `instance`, in document order.
    public static func violations(of instance: GeneratedContent, against schema: GenerationSchema) -> [Violation] {
        var walker = ValidationWalk(schema: schema, memory: ValidationMemory())
        walker.check(instance, against: schema.root, at: "")
        return walker.found
    }

    /// True when `instance` satisfies `schema`.
    public static func isValid(_ instance: GeneratedContent, against schema: GenerationSchema) -> Bool {
        violations(of: instance, against: schema).isEmpty
    }
}

/// What one validation remembers across its walks: compiled patterns, and the violations of each
/// (`$ref` target, instance path) pair, so that `anyOf` over recursive references checks each pair once
/// and validation stays polynomial in the nesting depth.
private final class ValidationMemory {
    var patterns: [String: PatternAutomaton?] = [:]
    var references: [String: [String: [Violation]]] = [:]
}

/// One validation walk: collects violations (an `anyOf` choice gets a walk of its own).
private struct ValidationWalk {
    let schema: GenerationSchema
    let memory: ValidationMemory
    var found: [Violation] = []

    init(schema: GenerationSchema, memory: ValidationMemory) {
        self.schema = schema
        self.memory = memory
    }

    mutating func report(_ path: String, _ keyword: Violation.Keyword, expected: GeneratedContent, actual: GeneratedContent, _ message: String) {
        found.append(Violation(path: path, keyword: keyword, expected: expected, actual: actual,
                               message: (path.isEmpty ? "the value" : path) + " " + message))
    }

    mutating func check(_ value: GeneratedContent, against node: GenerationSchema.Node, at path: String) {
        guard case .reference(let name) = node.kind else { return checkResolved(value, against: node, at: path) }
        if let known = memory.references[name]?[path] { return found.append(contentsOf: known) }
        let before = found.count
        if let target = schema.resolve(node) { checkResolved(value, against: target, at: path) }
        memory.references[name, default: [:]][path] = Array(found[before...])
    }

    mutating func checkResolved(_ value: GeneratedContent, against node: GenerationSchema.Node, at path: String) {
        switch node.kind {
        case .object(let object):
            guard let members = value.orderedProperties else { return typeMismatch(value, "object", path) }
            for property in object.properties {
                if let member = value[property.name] {
                    check(member, against: property.node, at: jsonPointer(path, property.name))
                } else if property.isRequired {
                    report(jsonPointer(path, property.name), .required, expected: GeneratedContent(property.name), actual: .null,
                           "is missing; property '\(property.name)' is required")
                }
            }
            if object.additionalProperties == false {
                let allowed = object.properties.map(\.name)
                for member in members where !allowed.contains(member.key) {
                    report(jsonPointer(path, member.key), .additionalProperties, expected: GeneratedContent(allowed.map { GeneratedContent($0) }),
                           actual: GeneratedContent(member.key), "is not allowed; the schema declares only \(allowed.isEmpty ? "no properties" : allowed.joined(separator: ", "))")
                }
            }
        case .string(let string):
            guard let text = value.stringValue else { return typeMismatch(value, "string", path) }
            if let choices = string.choices, !choices.contains(text) {
                let allowed = choices.map { GeneratedContent($0) }
                report(path, .enum, expected: GeneratedContent(allowed), actual: value, notOneOf(value, allowed))
            }
            if let pattern = string.pattern, !(compiled(pattern)?.matches(text) ?? false) {
                report(path, .pattern, expected: GeneratedContent(pattern), actual: value,
                       "is \(value.jsonString), which does not match the pattern \(GeneratedContent.quoted(pattern)) as a whole (a pattern must match the entire string)")
            }
        case .integer(let bounds):
            guard let number = value.numberValue else { return typeMismatch(value, "integer", path) }
            if number != number.rounded() {
                report(path, .type, expected: "integer", actual: "number", "is \(value.jsonString), which is not an integer")
            } else if value.writtenAsDecimal {
                report(path, .type, expected: "integer", actual: "number", "is \(value.jsonString), written as a decimal where an integer is required")
            }
            checkBounds(bounds, value, path)
        case .number(let bounds):
            guard value.numberValue != nil else { return typeMismatch(value, "number", path) }
            checkBounds(bounds, value, path)
        case .boolean:
            if value.boolValue == nil { typeMismatch(value, "boolean", path) }
        case .null:
            if !value.isNull { typeMismatch(value, "null", path) }
        case .array(let array):
            guard let elements = value.arrayValue else { return typeMismatch(value, "array", path) }
            if let minimum = array.minItems, elements.count < minimum {
                report(path, .minItems, expected: GeneratedContent(minimum), actual: GeneratedContent(elements.count),
                       "has \(elements.count) element\(elements.count == 1 ? "" : "s"); at least \(minimum) required")
            }
            if let maximum = array.maxItems, elements.count > maximum {
                report(path, .maxItems, expected: GeneratedContent(maximum), actual: GeneratedContent(elements.count),
                       "has \(elements.count) element\(elements.count == 1 ? "" : "s"); at most \(maximum) allowed")
            }
            for (position, element) in elements.enumerated() {
                check(element, against: array.items, at: jsonPointer(path, String(position)))
            }
        case .anyOf(let choices):
            checkAnyOf(value, choices, path)
        case .reference:
            break
        }
    }

    mutating func checkAnyOf(_ value: GeneratedContent, _ choices: [GenerationSchema.Node], _ path: String) {
        var closest: (index: Int, violations: [Violation])?
        for (position, choice) in choices.enumerated() {
            var inner = ValidationWalk(schema: schema, memory: memory)
            inner.check(value, against: choice, at: path)
            if inner.found.isEmpty { return }
            if closest == nil || inner.found.count < closest!.violations.count { closest = (position, inner.found) }
        }
        if let allowed = allowedValues(choices) {
            return report(path, .anyOf, expected: GeneratedContent(allowed), actual: value, notOneOf(value, allowed))
        }
        let names = choices.map { GeneratedContent(choiceName($0)) }
        var message = "matches none of the \(choices.count) anyOf choices"
        if let closest, let first = closest.violations.first {
            message += "; the closest, \(choiceName(choices[closest.index])), fails with: \(first.message)"
        }
        report(path, .anyOf, expected: GeneratedContent(names), actual: value, message)
    }

    /// The values an `anyOf` allows when every choice is a list of fixed values (string `enum`s, as
    /// Foundation Models writes an `.anyOf` guide, or the single-value ranges of a number `enum`); nil otherwise.
    func allowedValues(_ choices: [GenerationSchema.Node]) -> [GeneratedContent]? {
        var values: [GeneratedContent] = []
        for choice in choices {
            switch schema.resolve(choice)?.kind {
            case .string(let string)? where string.pattern == nil:
                guard let choices = string.choices else { return nil }
                values += choices.map { GeneratedContent($0) }
            case .integer(let bounds)?, .number(let bounds)?:
                guard let minimum = bounds.minimum, bounds.maximum == minimum else { return nil }
                values.append(GenerationSchema.NumberBounds.content(minimum, exact: bounds.exactMinimum))
            default:
                return nil
            }
        }
        return values.isEmpty ? nil : values
    }

    /// `is "maybe", which is not one of: positive, negative, neutral` (a value that would read ambiguously
    /// in the list, such as one with a comma, is quoted).
    func notOneOf(_ value: GeneratedContent, _ allowed: [GeneratedContent]) -> String {
        let shown = allowed.map { choice -> String in
            guard let text = choice.stringValue else { return choice.jsonString }
            let plain = !text.isEmpty && !text.contains(",") && !text.contains("\"") && text.first != " "
                && text.last != " "
            return plain ? text : choice.jsonString
        }
        return "is \(value.jsonString), which is not one of: \(shown.joined(separator: ", "))"
    }

    func choiceName(_ node: GenerationSchema.Node) -> String {
        if let title = node.title { return title }
        if case .reference(let name) = node.kind { return name == "#" ? (schema.root.title ?? "the root") : name }
        return schema.resolve(node)?.typeName ?? "a choice"
    }

    /// Bounds are compared exactly (`GeneratedContent.numericOrder`): an integer beyond ±2^53 (in the instance
    /// or the bound) by its digits, not as a rounded `Double`.
    mutating func checkBounds(_ bounds: GenerationSchema.NumberBounds, _ value: GeneratedContent, _ path: String) {
        if let minimum = bounds.minimum {
            let bound = GenerationSchema.NumberBounds.content(minimum, exact: bounds.exactMinimum)
            if let order = value.numericOrder(to: bound), order < 0 {
                report(path, .minimum, expected: bound, actual: value, "is \(value.jsonString), below the minimum \(bound.jsonString)")
            }
        }
        if let maximum = bounds.maximum {
            let bound = GenerationSchema.NumberBounds.content(maximum, exact: bounds.exactMaximum)
            if let order = value.numericOrder(to: bound), order > 0 {
                report(path, .maximum, expected: bound, actual: value, "is \(value.jsonString), above the maximum \(bound.jsonString)")
            }
        }
    }

    mutating func typeMismatch(_ value: GeneratedContent, _ expected: String, _ path: String) {
        report(path, .type, expected: GeneratedContent(expected), actual: GeneratedContent(value.typeName),
               "is \(value.typeName == "object" || value.typeName == "array" ? "an \(value.typeName)" : value.jsonString), not \(article(expected)) \(expected)")
    }

    func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.first.map(String.init) ?? "") ? "an" : "a"
    }

    /// The automaton of `pattern` (a checked schema's patterns always compile; nil fails every string).
    func compiled(_ pattern: String) -> PatternAutomaton? {
        if let cached = memory.patterns[pattern] { return cached }
        let automaton = try? PatternAutomaton(pattern: pattern)
        memory.patterns[pattern] = automaton
        return automaton
    }
}
