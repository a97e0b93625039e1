/// Reads JSON (RFC 8259) into the same located node tree as YAML, for errors with line:column.
///
/// Strings become double-quoted scalars; numbers, `true`, `false` and `null` become plain scalars whose
/// core-schema value is the JSON value. Duplicate object keys are rejected.
public struct JSONNodeReader {
    /// Parses one JSON value filling `text`; anything after it is an error.
    public static func parse(_ text: String, file: String) throws -> YAMLNode {
        try parse(text, file: file, lineOffset: 0)
    }

    /// Parses one JSON value that sits on line `lineOffset + 1` of `file` (for JSONL lines).
    public static func parse(_ text: String, file: String, lineOffset: Int) throws -> YAMLNode {
        var parser = YAMLParser(text: text, file: file)
        parser.firstLine = lineOffset + 1
        var reader = JSONNodeReader(parser: parser)
        reader.skipSpace()
        guard !reader.parser.atEnd else {
            throw reader.parser.error("empty JSON document; expected a value", at: 0)
        }
        let node = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.parser.atEnd else {
            throw reader.parser.error("unexpected text after the JSON value", at: reader.parser.pos)
        }
        return node
    }

    var parser: YAMLParser

    mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { parser.pos += 1 }
    }

    var peek: UInt8? { parser.atEnd ? nil : parser.bytes[parser.pos] }

    func fail(_ message: String) -> Diagnostic { parser.error(message, at: parser.pos) }

    mutating func value(depth: Int) throws -> YAMLNode {
        guard depth < YAMLParser.maximumDepth else { throw fail("JSON nested more than \(YAMLParser.maximumDepth) levels deep; flatten the structure") }
        guard let b = peek else { throw fail("unexpected end of JSON; expected a value") }
        let start = parser.pos
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""):
            let text = try string()
            return YAMLNode(.scalar(YAMLScalar(text: text, style: .doubleQuoted)), at: parser.location(start))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word in ["true", "false", "null"] where parser.bytes[start...].starts(with: word.utf8) {
                parser.pos += word.utf8.count
                return YAMLNode(.scalar(YAMLScalar(text: word, style: .plain)), at: parser.location(start))
            }
            throw fail("invalid JSON literal; expected true, false or null (strings need double quotes)")
        default:
            if b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) { return try number() }
            throw fail("unexpected '\(String(decoding: [b], as: UTF8.self))'; expected a JSON value (strings need double quotes)")
        }
    }

    mutating func object(depth: Int) throws -> YAMLNode {
        let start = parser.pos
        parser.pos += 1
        var entries: [YAMLNode.Entry] = []
        var seen: [String: SourceLocation] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") { parser.pos += 1; return YAMLNode(.mapping([]), at: parser.location(start)) }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw fail("expected a double-quoted object key") }
            let keyStart = parser.pos
            let key = try string()
            let keyNode = YAMLNode(.scalar(YAMLScalar(text: key, style: .doubleQuoted)), at: parser.location(keyStart))
            if let first = seen[key] {
                throw parser.error("duplicate key '\(key)' (first defined at \(first.line):\(first.column)); remove one", at: keyStart)
            }
            seen[key] = keyNode.location
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after the object key '\(key)'") }
            parser.pos += 1
            skipSpace()
            entries.append(YAMLNode.Entry(key: keyNode, value: try value(depth: depth + 1)))
            skipSpace()
            if peek == UInt8(ascii: ",") { parser.pos += 1; continue }
            if peek == UInt8(ascii: "}") { parser.pos += 1; break }
            let opened = parser.location(start)
            throw fail("expected ',' or '}' in the object opened at \(opened.line):\(opened.column)")
        }
        return YAMLNode(.mapping(entries), at: parser.location(start))
    }

    mutating func array(depth: Int) throws -> YAMLNode {
        let start = parser.pos
        parser.pos += 1
        var items: [YAMLNode] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { parser.pos += 1; return YAMLNode(.sequence([]), at: parser.location(start)) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            if peek == UInt8(ascii: ",") { parser.pos += 1; continue }
            if peek == UInt8(ascii: "]") { parser.pos += 1; break }
            let opened = parser.location(start)
            throw fail("expected ',' or ']' in the array opened at \(opened.line):\(opened.column)")
        }
        return YAMLNode(.sequence(items), at: parser.location(start))
    }

    mutating func string() throws -> String {
        let start = parser.pos
        parser.pos += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw parser.error("unterminated JSON string; add the closing '\"'", at: start) }
            if b == UInt8(ascii: "\"") { parser.pos += 1; break }
            if b < 0x20 { throw fail("control character in a JSON string; escape it (e.g. \\n)") }
            if b == UInt8(ascii: "\\") {
                let escapeStart = parser.pos
                parser.pos += 1
                guard let e = peek else { throw parser.error("unterminated JSON string; add the closing '\"'", at: start) }
                let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
                if let mapped = simple[e] {
                    out.append(mapped)
                    parser.pos += 1
                } else if e == UInt8(ascii: "u") {
                    parser.pos += 1
                    var code = try parser.hexDigits(4, escapeStart: escapeStart)
                    if (0xD800...0xDBFF).contains(code), peek == UInt8(ascii: "\\"), parser.byte(at: parser.pos + 1) == UInt8(ascii: "u") {
                        let save = parser.pos
                        parser.pos += 2
                        let low = try parser.hexDigits(4, escapeStart: save)
                        if (0xDC00...0xDFFF).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) } else { parser.pos = save }
                    }
                    let scalar = Unicode.Scalar(UInt32(code)) ?? "\u{FFFD}"
                    out += Array(String(Character(scalar)).utf8)
                } else {
                    throw parser.error("invalid JSON escape '\\\(String(decoding: [e], as: UTF8.self))'", at: escapeStart)
                }
                continue
            }
            out.append(b)
            parser.pos += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func number() throws -> YAMLNode {
        let start = parser.pos
        if peek == UInt8(ascii: "-") { parser.pos += 1 }
        func digits() -> Int {
            var count = 0
            while let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { parser.pos += 1; count += 1 }
            return count
        }
        let intStart = parser.pos
        let intDigits = digits()
        guard intDigits > 0 else { throw fail("invalid JSON number; expected a digit") }
        if intDigits > 1 && parser.bytes[intStart] == UInt8(ascii: "0") {
            throw parser.error("invalid JSON number: leading zeros are not allowed", at: intStart)
        }
        if peek == UInt8(ascii: ".") {
            parser.pos += 1
            guard digits() > 0 else { throw fail("invalid JSON number; expected a digit after '.'") }
        }
        if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            parser.pos += 1
            if let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { parser.pos += 1 }
            guard digits() > 0 else { throw fail("invalid JSON number; expected a digit in the exponent") }
        }
        let text = String(decoding: parser.bytes[start..<parser.pos], as: UTF8.self)
        return YAMLNode(.scalar(YAMLScalar(text: text, style: .plain)), at: parser.location(start))
    }
}
