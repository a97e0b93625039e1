/// A recursive-descent JSON parser over UTF-8 bytes that keeps key order and positions.
struct JSONParser {
    private let bytes: [UInt8]
    /// Offsets where each line starts, for turning offsets into line:column.
    private let lineStarts: [Int]
    private var index = 0
    private let partial: Bool
    private let trackLocations: Bool
    /// JSON pointers of the containers being parsed, outermost first (only when tracking); the last is the current value's.
    private var pointers: [String] = [""]
    /// Where location tracking last stopped: a byte offset, its 0-based line and its 1-based column.
    /// Values start at increasing offsets, so tracking resumes from here and stays linear in the input.
    private var cursor = (offset: 0, line: 0, column: 1)
    private var depth = 0
    /// Set in partial mode once the input ran out inside a value.
    private var truncated = false
    /// Start positions of values by JSON pointer (only when tracking).
    private(set) var locations: [String: GeneratedContent.SourceLocation] = [:]

    private static let maximumDepth = 512

    init(text: String, partial: Bool, trackLocations: Bool) {
        self.bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        self.lineStarts = starts
        self.partial = partial
        self.trackLocations = trackLocations
    }

    /// Parses one whole document; nil only in partial mode when no value has started.
    mutating func parseDocument() throws -> GeneratedContent? {
        skipWhitespace()
        if index == bytes.count {
            if partial { return nil }
            throw error("the input is empty; expected a JSON value")
        }
        let value = try parseValue()
        if truncated { return value }
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(bytes[index])) after the JSON value; expected the end of the input")
        }
        return value
    }

    private mutating func parseValue() throws -> GeneratedContent? {
        if trackLocations { locations[pointers[pointers.count - 1]] = trackedLocation(of: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            guard let string = try parseString() else { return GeneratedContent(kind: .string(partialString), isComplete: false) }
            return GeneratedContent(string)
        case UInt8(ascii: "t"): return try parseLiteral("true", GeneratedContent(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", GeneratedContent(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw error("unexpected \(describe(bytes[index])); expected a JSON value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw error("values are nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func parseObject() throws -> GeneratedContent {
        try enter()
        defer { depth -= 1 }
        index += 1
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        func object(complete: Bool) -> GeneratedContent {
            GeneratedContent(kind: .structure(properties: values, orderedKeys: keys), isComplete: complete)
        }
        func incomplete() -> GeneratedContent { object(complete: false) }
        skipWhitespace()
        if try atEnd(inside: "an object") { return incomplete() }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return GeneratedContent(properties: [])
        }
        while true {
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describe(bytes[index])); expected a quoted object key")
            }
            let keyStart = index
            guard let key = try parseString() else { return incomplete() }
            if values[key] != nil {
                throw error("duplicate object key \"\(key)\"; each key may appear once", at: keyStart)
            }
            skipWhitespace()
            if try atEnd(inside: "an object") { return incomplete() }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describe(bytes[index])); expected ':' after the key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            if try atEnd(inside: "an object") { return incomplete() }
            if trackLocations { pointers.append(jsonPointer(pointers[pointers.count - 1], key)) }
            let value = try parseValue()
            if trackLocations { pointers.removeLast() }
            if let value {
                values[key] = value
                keys.append(key)
            }
            if truncated { return incomplete() }
            skipWhitespace()
            if try atEnd(inside: "an object") { return incomplete() }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return object(complete: true)
            }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw error("unexpected \(describe(bytes[index])); expected ',' or '}' after the value of \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            if try atEnd(inside: "an object") { return incomplete() }
        }
    }

    private mutating func parseArray() throws -> GeneratedContent {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [GeneratedContent] = []
        func incomplete() -> GeneratedContent { GeneratedContent(kind: .array(elements), isComplete: false) }
        skipWhitespace()
        if try atEnd(inside: "an array") { return incomplete() }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return GeneratedContent(elements)
        }
        while true {
            if trackLocations { pointers.append(jsonPointer(pointers[pointers.count - 1], String(elements.count))) }
            let value = try parseValue()
            if trackLocations { pointers.removeLast() }
            if let value { elements.append(value) }
            if truncated { return incomplete() }
            skipWhitespace()
            if try atEnd(inside: "an array") { return incomplete() }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return GeneratedContent(elements)
            }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw error("unexpected \(describe(bytes[index])); expected ',' or ']' after an array element")
            }
            index += 1
            skipWhitespace()
            if try atEnd(inside: "an array") { return incomplete() }
        }
    }

    /// The text of a string cut off by the end of a partial input.
    private var partialString = ""

    /// Parses a quoted string; nil when a partial input ends inside it (its text so far is in `partialString`).
    private mutating func parseString() throws -> String? {
        let start = index
        index += 1
        // Fast path: a string without escapes becomes one slice of the input.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return text
        }
        var buffer = Array(bytes[index..<end])
        index = end
        scan: while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 {
                throw error("control character \(describe(byte)) inside a string; write it as an escape such as \\n")
            }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break scan }
            let escape = bytes[index + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = try parseUnicodeEscape() else { break scan }
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                continue
            default:
                throw error("invalid escape \\\(describe(escape, quoted: false)) in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
            index += 2
        }
        guard partial else { throw error("unterminated string; add the closing '\"'", at: start) }
        truncated = true
        partialString = String(decoding: buffer, as: UTF8.self)
        return nil
    }

    /// Parses `\uXXXX` (and a following low surrogate) at `index`; nil when a partial input ends inside it.
    private mutating func parseUnicodeEscape() throws -> Unicode.Scalar? {
        guard let high = try hexQuad(at: index + 2) else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            let next = index + 6
            let missingLow = "a high surrogate \\u\(String(high, radix: 16)) must be followed by a \\u low surrogate"
            if next + 1 >= bytes.count {
                if partial && (next == bytes.count || bytes[next] == UInt8(ascii: "\\")) { return nil }
                throw error(missingLow, at: min(next, bytes.count))
            }
            guard bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else { throw error(missingLow, at: next) }
            guard let low = try hexQuad(at: index + 8) else { return nil }
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("\\u\(String(low, radix: 16)) is not a low surrogate after \\u\(String(high, radix: 16))", at: index + 6)
            }
            index += 12
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw error("\\u\(String(high, radix: 16)) is a lone low surrogate; pair it with a preceding high surrogate")
        }
        index += 6
        return scalar
    }

    /// The value of four hex digits at `start`; nil when a partial input ends first.
    private func hexQuad(at start: Int) throws -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard start + offset < bytes.count else {
                if partial { return nil }
                throw error("unterminated \\u escape; it needs four hex digits", at: start - 2)
            }
            let byte = bytes[start + offset]
            guard let digit = hexValue(byte) else {
                throw error("\(describe(byte)) is not a hex digit in a \\u escape", at: start + offset)
            }
            value = value * 16 + digit
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: GeneratedContent) throws -> GeneratedContent? {
        for expected in word.utf8 {
            if index == bytes.count {
                guard partial else { throw error("the input ends inside '\(word)'") }
                truncated = true
                return nil
            }
            guard bytes[index] == expected else {
                throw error("unexpected \(describe(bytes[index])) in what looks like '\(word)'")
            }
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws -> GeneratedContent? {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index - from
        }
        /// In partial mode at the end of input: the number so far (its longest valid prefix), incomplete.
        func cutOff(validUpTo end: Int) throws -> GeneratedContent? {
            guard partial else { throw error("the input ends inside a number") }
            truncated = true
            guard end > start, let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)) else { return nil }
            return GeneratedContent(kind: .number(value), isComplete: false)
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        if integerDigits == 0 {
            if index == bytes.count { return try cutOff(validUpTo: start) }
            throw error("a number needs a digit after '-'")
        }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw error("numbers may not have leading zeros", at: integerStart)
        }
        var validEnd = index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 {
                if index == bytes.count { return try cutOff(validUpTo: validEnd) }
                throw error("a number needs a digit after '.'")
            }
            validEnd = index
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 {
                if index == bytes.count { return try cutOff(validUpTo: validEnd) }
                throw error("a number needs a digit in its exponent")
            }
            validEnd = index
        }
        if index == bytes.count && partial { return try cutOff(validUpTo: validEnd) }
        if validEnd == integerStart + integerDigits && integerDigits <= 15 {
            var magnitude = 0
            for position in integerStart..<validEnd { magnitude = magnitude * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
            return GeneratedContent(Double(integerStart > start ? -magnitude : magnitude))
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("the number \(text) is out of range", at: start)
        }
        var number = GeneratedContent(value)
        if validEnd == integerStart + integerDigits {
            if abs(value) >= 9_007_199_254_740_992 { number.exactInteger = ExactInteger(literal: text) }
        } else {
            number.writtenAsDecimal = true
        }
        return number
    }

    /// True at the end of input in partial mode (marking the parse truncated); throws there in complete mode.
    private mutating func atEnd(inside container: String) throws -> Bool {
        guard index == bytes.count else { return false }
        guard partial else {
            throw error("the input ends inside \(container); add the missing '\(container == "an array" ? "]" : "}")'")
        }
        truncated = true
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The location of `offset`, counted on from the previous call's (offsets must not decrease).
    private mutating func trackedLocation(of offset: Int) -> GeneratedContent.SourceLocation {
        while cursor.line + 1 < lineStarts.count, lineStarts[cursor.line + 1] <= offset {
            cursor = (lineStarts[cursor.line + 1], cursor.line + 1, 1)
        }
        var column = cursor.column
        for position in cursor.offset..<min(offset, bytes.count) where bytes[position] & 0xC0 != 0x80 { column += 1 }
        cursor = (offset, cursor.line, column)
        return GeneratedContent.SourceLocation(line: cursor.line + 1, column: column)
    }

    /// The location of `offset`, counted from the start of its line (for the one error of a parse).
    private func location(of offset: Int) -> GeneratedContent.SourceLocation {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let line = low + 1, lineStart = lineStarts[low]
        var column = 1
        if lineStart < offset {
            for position in lineStart..<min(offset, bytes.count) where bytes[position] & 0xC0 != 0x80 { column += 1 }
        }
        return GeneratedContent.SourceLocation(line: line, column: column)
    }

    /// A parsing error at `offset` (default: the current position), or "the input ends …" at the end.
    private func error(_ message: String, at offset: Int? = nil) -> GeneratedContent.ParsingError {
        let position = location(of: offset ?? index)
        return GeneratedContent.ParsingError(line: position.line, column: position.column, message: message)
    }

    private func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        let text: String
        switch byte {
        case 0x0A: text = "newline"
        case 0x09: text = "tab"
        case 0x0D: text = "carriage return"
        case 0x20...0x7E: text = String(UnicodeScalar(byte))
        default: text = "byte 0x" + String(byte, radix: 16)
        }
        return quoted && (0x21...0x7E).contains(byte) ? "'\(text)'" : text
    }
}
