/// A JSON value as Foundation Models generates it: the one JSON value type of fmeval.
///
/// Structures keep their keys in order; numbers are `Double` and remember whether they were written as
/// an integer or a decimal; equality and hashing are by value (key order, `isComplete` and the written
/// form do not take part), so two encodings of the same JSON compare equal.
public struct GeneratedContent: Sendable, CustomStringConvertible {
    /// The kinds of JSON value.
    public enum Kind: Sendable {
        /// JSON `null`.
        case null
        /// JSON `true` or `false`.
        case bool(Bool)
        /// A JSON number.
        case number(Double)
        /// A JSON string.
        case string(String)
        /// A JSON array.
        case array([GeneratedContent])
        /// A JSON object: its members, and the order of their keys.
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    /// What this value is.
    public var kind: Kind
    /// False for a value cut off mid-stream (see `partial(json:)`): it, or a value inside it, may still grow.
    public var isComplete: Bool
    /// For a number parsed from an integer literal that a `Double` cannot hold exactly (beyond ±2^53):
    /// the exact integer, which schema bounds compare against and JSON output writes back unchanged.
    public var exactInteger: ExactInteger?
    /// For a number: true when it was written as a decimal (`1.0`, `2.50`, `1e3`), so that an integral value
    /// still writes back as one (`1.0`, not `1`) and an integer schema can tell it from `1`. Not part of equality.
    public var writtenAsDecimal = false

    /// A value of `kind`, complete unless said otherwise.
    public init(kind: Kind, isComplete: Bool = true) {
        self.kind = kind
        self.isComplete = isComplete
    }

    /// A structure with members in the given order (a later duplicate key replaces an earlier one in place).
    public init(properties: [(String, GeneratedContent)], isComplete: Bool = true) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            if values.updateValue(value, forKey: key) == nil { keys.append(key) }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), isComplete: isComplete)
    }

    /// A string value.
    public init(_ string: String) { self.init(kind: .string(string)) }
    /// A number value.
    public init(_ number: Double) { self.init(kind: .number(number)) }
    /// A number value written as a decimal: an integral `number` writes back as `1.0`, not `1`.
    public init(decimal number: Double) {
        self.init(kind: .number(number))
        writtenAsDecimal = true
    }
    /// An integer value: a `Double`, with the exact integer kept beyond ±2^53 where a `Double` rounds.
    public init(_ number: Int) {
        self.init(kind: .number(Double(number)))
        if number.magnitude > 1 << 53 { exactInteger = ExactInteger(literal: String(number)) }
    }
    /// An integer of any size: the nearest `Double`, with the exact integer kept where that rounds.
    public init(_ integer: ExactInteger) {
        let nearest = integer.doubleValue
        self.init(kind: .number(nearest))
        if ExactInteger(nearest) != integer { exactInteger = integer }
    }
    /// A boolean value.
    public init(_ bool: Bool) { self.init(kind: .bool(bool)) }
    /// An array value.
    public init(_ elements: [GeneratedContent]) { self.init(kind: .array(elements)) }

    /// JSON `null`.
    public static let null = GeneratedContent(kind: .null)

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = kind { return value }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = kind { return value }
        return nil
    }

    /// The number as an `Int`, when this is an integral number that fits.
    public var intValue: Int? {
        guard let value = numberValue, value.rounded() == value, abs(value) < 9.2e18 else { return nil }
        return Int(value)
    }

    /// True for a number that is not an integer as written: a fraction, or written as a decimal (`2.0`, `1e3`).
    public var isDecimal: Bool {
        guard let value = numberValue else { return false }
        return writtenAsDecimal || value != value.rounded()
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [GeneratedContent]? {
        if case .array(let value) = kind { return value }
        return nil
    }

    /// The members in key order, when this is a structure.
    public var orderedProperties: [(key: String, value: GeneratedContent)]? {
        guard case .structure(let properties, let keys) = kind else { return nil }
        return keys.compactMap { key in properties[key].map { (key, $0) } }
    }

    /// True for JSON `null`.
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The member named `key`, when this is a structure that has it.
    public subscript(key: String) -> GeneratedContent? {
        guard case .structure(let properties, _) = kind else { return nil }
        return properties[key]
    }

    /// The JSON type name of this value: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .structure: return "object"
        }
    }

    /// The compact JSON text of this value.
    public var description: String { jsonString }
}

extension GeneratedContent.Kind: Equatable {
    /// Value equality: structures compare their members, not their key order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.structure(let a, _), .structure(let b, _)): return a == b
        default: return false
        }
    }
}

extension GeneratedContent.Kind: Hashable {
    /// Hashes by value, consistently with `==` (structure members in sorted key order).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .number(let value): hasher.combine(2); hasher.combine(value)
        case .string(let value): hasher.combine(3); hasher.combine(value)
        case .array(let values): hasher.combine(4); hasher.combine(values)
        case .structure(let properties, _):
            hasher.combine(5)
            for key in properties.keys.sorted() {
                hasher.combine(key)
                hasher.combine(properties[key])
            }
        }
    }
}

extension GeneratedContent: Hashable {
    /// Value equality of the JSON values (key order and completeness do not count); integers beyond ±2^53
    /// compare exactly, so `9007199254740993` is not `9007199254740992`.
    public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool {
        if lhs.exactInteger != nil || rhs.exactInteger != nil { return lhs.numericOrder(to: rhs) == 0 }
        return lhs.kind == rhs.kind
    }

    /// -1, 0 or 1 as this number is below, equal to or above `other`, compared exactly (an integer beyond
    /// ±2^53 by its digits, not as a rounded `Double`); nil unless both are numbers, or for NaN.
    public func numericOrder(to other: GeneratedContent) -> Int? {
        guard case .number(let number) = kind, case .number(let otherNumber) = other.kind,
              !number.isNaN, !otherNumber.isNaN else { return nil }
        switch (exactInteger, other.exactInteger) {
        case (let exact?, let otherExact?): return exact.compare(to: otherExact)
        case (let exact?, nil): return exact.compare(to: otherNumber)
        case (nil, let otherExact?): return -otherExact.compare(to: number)
        case (nil, nil): return number < otherNumber ? -1 : (number > otherNumber ? 1 : 0)
        }
    }

    /// Hashes the JSON value, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension GeneratedContent: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    /// A string from a literal.
    public init(stringLiteral value: String) { self.init(value) }
    /// A number from an integer literal.
    public init(integerLiteral value: Int) { self.init(value) }
    /// A number from a floating-point literal.
    public init(floatLiteral value: Double) { self.init(value) }
    /// A boolean from a literal.
    public init(booleanLiteral value: Bool) { self.init(value) }
    /// An array from a literal.
    public init(arrayLiteral elements: GeneratedContent...) { self.init(elements) }
    /// A structure from a literal, keys in the literal's order.
    public init(dictionaryLiteral elements: (String, GeneratedContent)...) { self.init(properties: elements) }
    /// `null` from the `nil` literal.
    public init(nilLiteral: ()) { self.init(kind: .null) }
}
