import FMCore

/// A parsed YAML (or JSON) node that remembers where it came from.
///
/// JSON is read into the same tree (JSON is a subset of YAML 1.2), so suites, schemas and datasets in
/// either syntax go through one validation path.
public struct YAMLNode: Sendable, CustomStringConvertible {
    /// A mapping entry: a scalar key node and its value, in source order.
    public struct Entry: Sendable {
        /// The key (always a scalar).
        public var key: YAMLNode
        /// The value.
        public var value: YAMLNode
        /// The key's text.
        public var name: String { key.scalar?.text ?? "" }
    }

    /// What the node holds.
    public enum Content: Sendable {
        /// A scalar with its style.
        case scalar(YAMLScalar)
        /// A sequence of nodes.
        case sequence([YAMLNode])
        /// A mapping with keys in source order (duplicate keys are rejected by the parsers).
        case mapping([Entry])
    }

    /// The node's content.
    public var content: Content
    /// Where the node starts.
    public var location: SourceLocation

    /// Creates a node.
    public init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The scalar, when this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, when this node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries, when this node is a mapping.
    public var mapping: [Entry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// The value for `key` in a mapping node.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.name == key }?.value
    }

    /// True for a null scalar (`null`, `~`, empty).
    public var isNull: Bool {
        if case .null = scalar?.value { return true }
        return false
    }

    /// A short name of the node's kind for error messages ("a string", "a mapping" …).
    public var kindName: String {
        switch content {
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        case .scalar(let scalar): return scalar.value.kindName
        }
    }

    /// A compact YAML-flow rendering, for tests and messages.
    public var description: String {
        switch content {
        case .scalar(let scalar): return scalar.value.description
        case .sequence(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .mapping(let entries):
            return "{" + entries.map { "\($0.name): \($0.value.description)" }.joined(separator: ", ") + "}"
        }
    }
}

/// How a scalar was written.
public enum ScalarStyle: String, Sendable, Codable {
    /// Unquoted; typed by the YAML 1.2 core schema.
    case plain
    /// `'…'`
    case singleQuoted
    /// `"…"` (and JSON strings)
    case doubleQuoted
    /// `|` block scalar
    case literal
    /// `>` block scalar
    case folded
}

/// A scalar's text, style and core-schema value.
public struct YAMLScalar: Sendable {
    /// The scalar's content after unescaping and folding.
    public var text: String
    /// How it was written.
    public var style: ScalarStyle
    /// The typed value: plain scalars resolve by the YAML 1.2 core schema, all others are strings.
    public var value: ScalarValue

    /// Creates a scalar, resolving its value from the text and style.
    public init(text: String, style: ScalarStyle) {
        self.text = text
        self.style = style
        self.value = style == .plain ? ScalarValue(coreSchema: text) : .string(text)
    }
}

/// A YAML 1.2 core-schema value.
public enum ScalarValue: Sendable, Equatable, CustomStringConvertible {
    /// `null`, `Null`, `NULL`, `~` or empty.
    case null
    /// `true`/`false` in lower, title or upper case.
    case bool(Bool)
    /// Decimal, `0o` octal or `0x` hexadecimal integer.
    case int(Int)
    /// A decimal integer beyond the 64-bit range, kept exactly (never rounded to a float).
    case bigInt(ExactInteger)
    /// Decimal float, `.inf`, `-.inf`, `.nan`.
    case float(Double)
    /// Anything else.
    case string(String)

    /// Resolves plain-scalar text by the YAML 1.2 core schema.
    public init(coreSchema text: String) {
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": self = .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": self = .float(-.infinity)
        case ".nan", ".NaN", ".NAN": self = .float(.nan)
        default:
            if let value = ScalarValue.integer(text) {
                self = value
            } else if ScalarValue.isCoreFloat(text), let value = Double(text) {
                self = .float(value)
            } else {
                self = .string(text)
            }
        }
    }

    /// Why plain `text` has no exact core-schema value (a hexadecimal or octal integer outside the 64-bit
    /// range, or a float beyond the largest double), as an error message; nil when it resolves exactly or is
    /// not a number. Decimal integers of any size resolve exactly (`bigInt`).
    public static func rangeProblem(plain text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            let radix = bytes[1] == UInt8(ascii: "o") ? 8 : 16
            let digits = String(decoding: bytes[2...], as: UTF8.self)
            guard digits.utf8.allSatisfy({ isDigit($0, radix: radix) }), Int(digits, radix: radix) == nil else { return nil }
            return "integer \(text) is out of range (the largest is 0x7FFFFFFFFFFFFFFF); quote it to make it a string"
        }
        if isCoreFloat(text), let value = Double(text), value.isInfinite {
            return "number \(text) is beyond the largest 64-bit float; write .inf, or quote it to make it a string"
        }
        return nil
    }

    private static func integer(_ text: String) -> ScalarValue? {
        let bytes = Array(text.utf8)
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            let radix = bytes[1] == UInt8(ascii: "o") ? 8 : 16
            let digits = String(decoding: bytes[2...], as: UTF8.self)
            guard digits.utf8.allSatisfy({ isDigit($0, radix: radix) }) else { return nil }
            if let value = Int(digits, radix: radix) { return .int(value) }
            return .string(text)
        }
        var body = bytes[...]
        if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ isDigit($0, radix: 10) }) else { return nil }
        if let value = Int(text) { return .int(value) }
        return ExactInteger(literal: text.hasPrefix("+") ? String(text.dropFirst()) : text).map { .bigInt($0) }
    }

    private static func isDigit(_ byte: UInt8, radix: Int) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "7"): return true
        case UInt8(ascii: "8"), UInt8(ascii: "9"): return radix >= 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): return radix == 16
        default: return false
        }
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isCoreFloat(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let intDigits = bytes.prefix { isDigit($0, radix: 10) }
        bytes = bytes.dropFirst(intDigits.count)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let digits = bytes.prefix { isDigit($0, radix: 10) }
            fractionDigits = digits.count
            bytes = bytes.dropFirst(digits.count)
        }
        guard intDigits.count + fractionDigits > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix { isDigit($0, radix: 10) }
            guard !digits.isEmpty else { return false }
            bytes = bytes.dropFirst(digits.count)
        }
        return bytes.isEmpty
    }

    /// "null", "a boolean", "an integer", "a number" or "a string", for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .bigInt: return "an integer"
        case .float: return "a number"
        case .string: return "a string"
        }
    }

    /// The value as YAML would print it.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .bigInt(let value): return value.description
        case .float(let value): return value.isNaN ? ".nan" : value.isInfinite ? (value > 0 ? ".inf" : "-.inf") : String(value)
        case .string(let value): return value
        }
    }
}
