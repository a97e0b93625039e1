extension GeneratedContent {
    /// Compact JSON text: structure keys in order, integral numbers without `.0`, non-finite numbers as `null`.
    public var jsonString: String {
        var output = ""
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// JSON text indented by `indent` spaces per level, one member or element per line.
    public func jsonString(indent: Int) -> String {
        var output = ""
        write(to: &output, indent: max(0, indent), level: 0)
        return output
    }

    /// One-line JSON text with a space after each `,` and `:` — the form Apple's transcripts use for tool-call arguments.
    public var spacedJSONString: String {
        var output = ""
        write(to: &output, indent: nil, level: 0, spaced: true)
        return output
    }

    private func write(to output: inout String, indent: Int?, level: Int, spaced: Bool = false) {
        switch kind {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += Self.format(number: value)
        case .string(let value): Self.writeQuoted(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += spaced ? ", " : "," }
                Self.newline(&output, indent: indent, level: level + 1)
                element.write(to: &output, indent: indent, level: level + 1, spaced: spaced)
            }
            Self.newline(&output, indent: indent, level: level)
            output += "]"
        case .structure:
            let members = orderedProperties ?? []
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { output += spaced ? ", " : "," }
                Self.newline(&output, indent: indent, level: level + 1)
                Self.writeQuoted(member.key, to: &output)
                output += indent == nil && !spaced ? ":" : ": "
                member.value.write(to: &output, indent: indent, level: level + 1, spaced: spaced)
            }
            Self.newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: Int?, level: Int) {
        guard let indent else { return }
        output += "\n" + String(repeating: " ", count: indent * level)
    }

    /// JSON text of a number: integral values in ±2^53 print as integers.
    static func format(number value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Appends `value` as a quoted JSON string.
    static func writeQuoted(_ value: String, to output: inout String) {
        output += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    /// `value` as a quoted JSON string literal.
    public static func quoted(_ value: String) -> String {
        var output = ""
        writeQuoted(value, to: &output)
        return output
    }
}

/// A coding key made from any string or index, for walking JSON of unknown shape.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension GeneratedContent: Codable {
    /// Decodes any JSON value.
    ///
    /// `Decoder` does not report key order (Foundation's `JSONDecoder` gives it in hash order, which changes
    /// from run to run), so structure keys come out sorted, for determinism; use `init(json:)` to keep the
    /// order of the text.
    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [(String, GeneratedContent)] = []
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key.stringValue, try container.decode(GeneratedContent.self, forKey: key)))
            }
            self.init(properties: members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [GeneratedContent] = []
            while !container.isAtEnd { elements.append(try container.decode(GeneratedContent.self)) }
            self.init(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self.init(value)
            } else if let value = try? container.decode(Double.self) {
                self.init(value)
            } else if let value = try? container.decode(String.self) {
                self.init(value)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a JSON value")
            }
        }
    }

    /// Encodes the JSON value, structure members in key order.
    public func encode(to encoder: Encoder) throws {
        switch kind {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .structure:
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in orderedProperties ?? [] {
                try container.encode(member.value, forKey: AnyCodingKey(stringValue: member.key))
            }
        }
    }
}
