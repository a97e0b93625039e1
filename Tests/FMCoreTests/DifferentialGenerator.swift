@testable import FMCore

/// A seeded generator of (schema, instance text) pairs in the Foundation Models dialect, for the
/// differential test against python-jsonschema: small schemas using every keyword, instances that
/// mostly follow their schema (so both verdicts occur), and some instance texts corrupted into malformed JSON.
struct DifferentialGenerator {
    /// A JSON value whose numbers keep their literal text (so integers beyond 2^53 reach both sides intact).
    indirect enum Value {
        case null, bool(Bool), number(String), string(String), array([Value]), object([(String, Value)])
    }

    private var random: SplitMix64
    /// The schema's definitions by name (`#` is the root), while an instance is generated.
    private var definitions: [String: GeneratedContentNode] = [:]

    /// A schema node as the generator builds it: keywords to values (`Literal` numbers, nested nodes).
    typealias GeneratedContentNode = [String: Any]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// SplitMix64.
    private mutating func next() -> UInt64 { random.next() }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    static let integers = ["0", "1", "-1", "2", "3", "7", "-3", "9007199254740991", "9007199254740992", "9007199254740993",
                           "-9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                           "18446744073709551617", "-123456789012345678901234567890"]
    static let decimals = ["0.5", "2.25", "-2.75", "2.0", "1e2", "-0.0", "7.5E-1"]
    static let bounds = ["-3", "0", "2", "2.5", "7", "9007199254740992", "-9007199254740992", "9007199254740993", "-9007199254740993", "9223372036854775808", "-9223372036854775809", "18446744073709551617", "1e2"]
    static let alphabet = ["a", "b", "c", "1", " ", "x", "é", "\n", "."]
    static let names = ["a", "b", "c"]

    /// One schema (JSON text) and one instance text for it, possibly malformed.
    mutating func pair() -> (schema: String, instance: String) {
        definitions = [:]
        var root: GeneratedContentNode
        if chance(25) {
            let definition = node(depth: 1, allowReference: true)
            definitions["D"] = definition
            root = chance(50) ? ["$ref": "#/$defs/D"] : node(depth: 0, allowReference: true)
            root["$defs"] = Members(pairs: [("D", definition)])
        } else {
            root = node(depth: 0, allowReference: false)
        }
        definitions["#"] = root
        let text = render(instance(for: root, depth: 0), pretty: chance(40))
        return (Self.json(root), chance(15) ? corrupt(text) : text)
    }

    /// A schema node; `$ref`s only where `allowReference` and directly under an array or object, so every
    /// recursion consumes a level of the instance.
    private mutating func node(depth: Int, allowReference: Bool, inContainer: Bool = false) -> GeneratedContentNode {
        let kinds = depth >= 3 ? ["string", "integer", "number", "boolean", "null"]
            : ["string", "string", "integer", "number", "boolean", "null", "array", "object", "object", "anyOf"] + (allowReference && inContainer ? ["ref", "ref"] : [])
        switch pick(kinds) {
        case "string":
            var schema: GeneratedContentNode = ["type": "string"]
            if chance(30) { schema["enum"] = (0..<(1 + below(3))).map { _ in randomString() } }
            if chance(60) { schema["pattern"] = pattern(depth: 0) }
            return schema
        case let type where type == "integer" || type == "number":
            var schema: GeneratedContentNode = ["type": type]
            // Integer bounds are whole numbers: the dialect refuses integer bounds with no integer between them.
            let pool = type == "integer" ? Self.bounds.filter { !$0.contains(".") } : Self.bounds
            let chosen = [pick(pool), pick(pool)].sorted { Double($0)! < Double($1)! }
            if chance(50) { schema["minimum"] = Literal(chosen[0]) }
            if chance(50) { schema["maximum"] = Literal(chosen[1]) }
            return schema
        case "boolean": return ["type": "boolean"]
        case "null": return ["type": "null"]
        case "array":
            var schema: GeneratedContentNode = ["type": "array", "items": node(depth: depth + 1, allowReference: allowReference, inContainer: true)]
            let low = below(3), high = low + below(3)
            if chance(40) { schema["minItems"] = Literal(String(low)) }
            if chance(40) { schema["maxItems"] = Literal(String(high)) }
            return schema
        case "object":
            let chosen = Self.names.filter { _ in chance(70) }
            var schema: GeneratedContentNode = ["type": "object", "properties": Members(pairs: chosen.map { ($0, node(depth: depth + 1, allowReference: allowReference, inContainer: true)) })]
            schema["required"] = chosen.filter { _ in chance(60) }
            // The dialect refuses a free-form object (additionalProperties: true and no properties).
            if chance(60) { schema["additionalProperties"] = chance(70) || chosen.isEmpty ? false : true }
            return schema
        case "anyOf":
            return ["anyOf": (0..<(2 + below(2))).map { _ in node(depth: depth + 1, allowReference: allowReference) }]
        default:
            return ["$ref": chance(50) ? "#" : "#/$defs/D"]
        }
    }

    /// A regular expression in the supported subset, over the generator's alphabet.
    private mutating func pattern(depth: Int) -> String {
        (0..<(1 + below(3))).map { _ in
            var atom = pick(["a", "b", "c", "[ab]", "[^a]", "\\d", ".", "\\w", "\\s", "x"])
            if depth < 2 && chance(20) { atom = "(" + pattern(depth: depth + 1) + "|" + pattern(depth: depth + 1) + ")" }
            return atom + pick(["", "", "*", "+", "?", "{1,2}", "{2}", "{0,}"])
        }.joined()
    }

    private mutating func randomString() -> String {
        (0..<below(5)).map { _ in pick(Self.alphabet) }.joined()
    }

    private mutating func randomScalar() -> Value {
        switch below(5) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(pick(Self.integers))
        case 3: return .number(pick(Self.decimals))
        default: return .string(randomString())
        }
    }

    /// An instance that follows `schema` most of the time.
    private mutating func instance(for schema: GeneratedContentNode, depth: Int) -> Value {
        if depth > 5 || chance(8) { return randomScalar() }
        if let reference = schema["$ref"] as? String {
            let name = reference == "#" ? "#" : "D"
            return definitions[name].map { instance(for: $0, depth: depth + 1) } ?? randomScalar()
        }
        if let choices = schema["anyOf"] as? [GeneratedContentNode] { return instance(for: pick(choices), depth: depth + 1) }
        switch schema["type"] as? String {
        case "string":
            if let choices = schema["enum"] as? [String], chance(70) { return .string(pick(choices)) }
            return .string(randomString())
        case "integer": return .number(pick(Self.integers))
        case "number": return .number(chance(50) ? pick(Self.integers) : pick(Self.decimals))
        case "boolean": return .bool(chance(50))
        case "null": return .null
        case "array":
            let items = schema["items"] as! GeneratedContentNode
            return .array((0..<below(5)).map { _ in instance(for: items, depth: depth + 1) })
        default:
            let properties = (schema["properties"] as? Members)?.pairs ?? []
            var members = properties.filter { _ in chance(80) }.map { ($0.0, instance(for: $0.1 as! GeneratedContentNode, depth: depth + 1)) }
            if chance(15) { members.append(("z", randomScalar())) }
            if chance(30) { members.reverse() }
            return .object(members)
        }
    }

    /// Breaks `text`: cuts it short, inserts a stray character or deletes one.
    private mutating func corrupt(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return "," }
        let position = below(scalars.count)
        switch below(3) {
        case 0: scalars.removeSubrange(position...)
        case 1: scalars.insert(pick([",", "]", "}", ":", "\"", "x", "\u{1}", "{", "["]), at: position)
        default: scalars.remove(at: position)
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// JSON text of `value`, compact or indented over several lines.
    func render(_ value: Value, pretty: Bool, indent: String = "") -> String {
        let inner = indent + "  "
        let open = pretty ? "\n" + inner : "", separator = pretty ? ",\n" + inner : ",", close = pretty ? "\n" + indent : ""
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return GeneratedContent.quoted(text)
        case .array(let items):
            if items.isEmpty { return "[]" }
            let body: [String] = items.map { render($0, pretty: pretty, indent: inner) }
            return "[" + open + body.joined(separator: separator) + close + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let body: [String] = members.map { GeneratedContent.quoted($0.0) + ": " + render($0.1, pretty: pretty, indent: inner) }
            return "{" + open + body.joined(separator: separator) + close + "}"
        }
    }

    /// Named schemas (`properties`, `$defs`) in order.
    struct Members { let pairs: [(String, Any)] }

    /// A number written as its literal text in schema JSON.
    struct Literal { let text: String; init(_ text: String) { self.text = text } }

    /// Compact JSON text of a generated schema (properties in generation order).
    static func json(_ value: Any) -> String {
        switch value {
        case let literal as Literal: return literal.text
        case let flag as Bool: return flag ? "true" : "false"
        case let text as String: return GeneratedContent.quoted(text)
        case let members as Members: return "{" + members.pairs.map { GeneratedContent.quoted($0.0) + ":" + json($0.1) }.joined(separator: ",") + "}"
        case let object as [String: Any]:
            let order = ["type", "$ref", "anyOf", "enum", "pattern", "minimum", "maximum", "items", "minItems", "maxItems", "properties", "required", "additionalProperties", "$defs"]
            return "{" + order.compactMap { key in object[key].map { GeneratedContent.quoted(key) + ":" + json($0) } }.joined(separator: ",") + "}"
        case let array as [Any]: return "[" + array.map(json).joined(separator: ",") + "]"
        default: return "null"
        }
    }
}
