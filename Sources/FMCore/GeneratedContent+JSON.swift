extension GeneratedContent {
    /// Compact JSON text: structure keys in order, integral numbers without `.0` unless written as a decimal,
    /// non-finite numbers as `null`.
    public var jsonString: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        writeJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// JSON text indented by `indent` spaces per level, one member or element per line.
    public func jsonString(indent: Int) -> String {
        var bytes: [UInt8] = []
        write(to: &bytes, indent: max(0, indent), level: 0, spaced: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One-line JSON text with a space after each `,` and `:` — the form Apple's transcripts use for tool-call arguments.
    public var spacedJSONString: String {
        var bytes: [UInt8] = []
        write(to: &bytes, indent: nil, level: 0, spaced: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of this value, as UTF-8, to `bytes` (the fast path of `jsonString`).
    func writeJSON(to bytes: inout [UInt8]) {
        switch kind {
        case .null: Self.append("null", to: &bytes)
        case .bool(let value): Self.append(value ? "true" : "false", to: &bytes)
        case .number(let value):
            if let exactInteger {
                Self.append(exactInteger.description, to: &bytes)
            } else {
                let integral = value.isFinite && value == value.rounded() && abs(value) <= 9_007_199_254_740_992
                if writtenAsDecimal, integral, value == 0, value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                Self.writeNumber(value, to: &bytes)
                if writtenAsDecimal, integral { Self.append(".0", to: &bytes) }
            }
        case .string(let value): Self.writeQuoted(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                element.writeJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .structure(let properties, let keys):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for key in keys {
                guard let value = properties[key] else { continue }
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                Self.writeQuoted(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.writeJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private func write(to output: inout [UInt8], indent: Int?, level: Int, spaced: Bool) {
        switch kind {
        case .null, .bool, .number, .string: writeJSON(to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { Self.append("[]", to: &output); return }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { Self.append(spaced ? ", " : ",", to: &output) }
                Self.newline(&output, indent: indent, level: level + 1)
                element.write(to: &output, indent: indent, level: level + 1, spaced: spaced)
            }
            Self.newline(&output, indent: indent, level: level)
            output.append(UInt8(ascii: "]"))
        case .structure:
            let members = orderedProperties ?? []
            guard !members.isEmpty else { Self.append("{}", to: &output); return }
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { Self.append(spaced ? ", " : ",", to: &output) }
                Self.newline(&output, indent: indent, level: level + 1)
                Self.writeQuoted(member.key, to: &output)
                Self.append(indent == nil && !spaced ? ":" : ": ", to: &output)
                member.value.write(to: &output, indent: indent, level: level + 1, spaced: spaced)
            }
            Self.newline(&output, indent: indent, level: level)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], indent: Int?, level: Int) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    /// Appends the UTF-8 bytes of `text`.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// JSON text of a number: integral values in ±2^53 print as integers.
    static func format(number value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Appends `format(number: value)` as UTF-8; integers are written digit by digit without a `String`.
    static func writeNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite, value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else {
            append(format(number: value), to: &bytes)
            return
        }
        writeInteger(Int64(value), to: &bytes)
    }

    /// Appends the decimal digits of `value` (with a leading `-` when negative).
    static func writeInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends `value` as a quoted JSON string, UTF-8.
    static func writeQuoted(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` as a quoted JSON string literal.
    public static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        writeQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A coding key made from any string or index, for walking JSON of unknown shape.
public struct AnyCodingKey: CodingKey, Sendable {
    /// The key's text.
    public var stringValue: String
    /// The key's index, when it is one.
    public var intValue: Int?
    /// A key named `stringValue`.
    public init(stringValue: String) { self.stringValue = stringValue }
    /// A key for index `intValue`.
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension GeneratedContent: Codable {
    /// Decodes any JSON value.
    ///
    /// `Decoder` does not report key order (Foundation's `JSONDecoder` gives it in hash order, which changes
    /// from run to run), so structure keys come out sorted, for determinism; use `init(json:)` to keep the
    /// order of the text and the written form of numbers (`1.0` or `1`), which `Decoder` does not report either.
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
            if !writtenAsDecimal, value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
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
