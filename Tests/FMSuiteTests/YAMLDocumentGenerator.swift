import FMCore

/// A seeded generator of YAML documents inside fmeval's subset, for the differential test against PyYAML.
///
/// Every document it writes is valid YAML 1.2 that our parser must accept. PyYAML implements YAML 1.1;
/// the test's Python side resolves plain scalars by the 1.2 core schema, so typing differences are
/// handled there (a few 1.1-ambiguous scalars — `0o17`, `017`, `1e3`, `-.5`, `yes`, `off` — are written
/// on purpose to prove it). What the loader cannot change is 1.1's scanner, so the generator avoids
/// U+0085, U+2028 and U+2029 (line breaks in 1.1), and plain words start with a letter.
struct YAMLDocumentGenerator {
    /// The random source.
    var random: SplitMix64

    /// Letters a plain word may start with.
    static let firstLetters = Array("abcdeghijklmpqrsuvwxzABCDEGHéλ日ж")
    /// Letters inside a word.
    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789éλ日本ж😀_")

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    /// One of `items`, chosen at random.
    mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }

    /// A whole document: a block mapping, a block sequence, a flow collection or a lone scalar.
    mutating func document() -> String {
        var lines: [String] = []
        if chance(10) { lines.append("# a leading comment") }
        if chance(10) { lines.append("---") }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: lines.append(flow(depth: 2, keys: []))
        case 1: lines.append(inlineScalar(flow: false))
        case 2...4: lines += blockSequence(indent: 0, depth: 3)
        default: lines += blockMapping(indent: 0, depth: 3)
        }
        if chance(10) { lines.append("...") }
        return lines.joined(separator: "\n") + (chance(80) ? "\n" : "")
    }

    /// A plain word such as `abc`, `a:b`, `c#d` or `λ日-x`.
    mutating func word() -> String {
        var word = String(pick(Self.firstLetters))
        for _ in 0..<Int.random(in: 0...6, using: &random) { word.append(pick(Self.letters)) }
        if chance(8) { word += pick([":x", "#y", "-z", ".w", "/v", "(u)", "'s", "!"]) }
        return word
    }

    /// A plain (unquoted) string of one to three words.
    mutating func plainText() -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in word() }.joined(separator: " ")
    }

    /// A key unique among `keys` (plain, single- or double-quoted).
    mutating func key(unique keys: inout Set<String>) -> String {
        var text = word()
        while keys.contains(text) { text += String(pick(Self.letters)) }
        keys.insert(text)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case 1: return "\"" + text + "\""
        default: return text
        }
    }

    /// A number, boolean or null in both YAML 1.1 and 1.2 (see the type's comment).
    mutating func typedScalar() -> String {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return pick(["true", "True", "TRUE", "false", "False", "FALSE"])
        case 1: return pick(["null", "Null", "NULL", "~"])
        case 2: return String(Int64.random(in: .min ... .max, using: &random))
        case 3: return pick(["9223372036854775807", "-9223372036854775808", "0", "-0", "+7", "0x0", "0xFF", "0x7fffffffffffffff", "0o17", "017", "1e3", "-.5", "yes", "off",
                                 "9007199254740993", "9223372036854775808", "-9223372036854775809", "+18446744073709551617",
                                 "123456789012345678901234567890", "-0009223372036854775808"])
        case 4: return "0x" + String(UInt64.random(in: 0...UInt64(Int64.max), using: &random), radix: 16, uppercase: chance(50))
        case 5: return pick([".inf", "-.inf", "+.inf", ".Inf", ".NaN", ".nan", "1.", "0.0", "-0.0", ".5"])
        case 6:
            let exponent = chance(40) ? "e" + pick(["+", "-"]) + String(Int.random(in: 0...300, using: &random)) : ""
            return String(Int.random(in: -99999...99999, using: &random)) + "." + String(Int.random(in: 0...999999, using: &random)) + exponent
        default: return String(Int.random(in: -1000...1000, using: &random))
        }
    }

    /// A single-quoted string (with `''` escapes and unicode).
    mutating func singleQuoted() -> String {
        "'" + (plainText().replacingOccurrences(of: "'", with: "''") + pick(["", " it''s", " # not a comment", ": colon", " [x, y]", " é 日本"])) + "'"
    }

    /// A double-quoted string with escapes.
    mutating func doubleQuoted() -> String {
        var text = "\""
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            text += pick([plainText(), "\\n", "\\t", "\\\\", "\\\"", "\\/", "\\u00e9", "\\x41", "\\U0001F600", " # x", ": y", "{z}", "\\0"])
        }
        return text + "\""
    }

    /// A scalar that fits on the current line: typed, plain, or quoted.
    mutating func inlineScalar(flow: Bool) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: return typedScalar()
        case 4...5: return singleQuoted()
        case 6...7: return doubleQuoted()
        default:
            return flow ? plainText().filter { !",[]{}#".contains($0) } : plainText()
        }
    }

    /// A flow collection on one line.
    mutating func flow(depth: Int, keys: Set<String>) -> String {
        let count = Int.random(in: 0...4, using: &random)
        var seen = keys
        if chance(50) {
            let items = (0..<count).map { _ in depth > 0 && chance(25) ? flow(depth: depth - 1, keys: []) : inlineScalar(flow: true) }
            return "[" + items.joined(separator: ", ") + (chance(10) && count > 0 ? ", ]" : "]")
        }
        let entries = (0..<count).map { _ -> String in
            let name = key(unique: &seen)
            let value = depth > 0 && chance(25) ? flow(depth: depth - 1, keys: []) : inlineScalar(flow: true)
            return name + ": " + value
        }
        return "{" + entries.joined(separator: ", ") + "}"
    }

    /// A trailing comment or nothing.
    mutating func comment() -> String { chance(15) ? "  # note " + word() : "" }

    /// A literal or folded block scalar: the header and its content lines, indented by `indent`.
    mutating func blockScalar(indent: Int) -> (header: String, lines: [String]) {
        let header = pick(["|", ">"]) + pick(["", "", "-", "+"]) + (chance(10) ? " # header" : "")
        let pad = String(repeating: " ", count: indent)
        var lines = [pad + plainText()]
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: lines.append("")
            case 1: lines.append(pad + "  " + plainText())
            default: lines.append(pad + plainText())
            }
        }
        if chance(30) { lines.append("") }
        return (header, lines)
    }

    /// A value after `key:` or `- `: an inline scalar or flow collection, a block scalar, or a nested block collection.
    mutating func value(indent: Int, depth: Int, compactSequence: Bool) -> (inline: String, lines: [String]) {
        let choice = depth == 0 ? Int.random(in: 0..<7, using: &random) : Int.random(in: 0..<11, using: &random)
        switch choice {
        case 0...3: return (" " + inlineScalar(flow: false) + comment(), [])
        case 4: return (" " + flow(depth: 1, keys: []) + comment(), [])
        case 5:
            let block = blockScalar(indent: indent + 2)
            return (" " + block.header, block.lines)
        case 6: return ("", [])
        case 7...8: return (comment(), blockMapping(indent: indent + 2, depth: depth - 1))
        default: return (comment(), blockSequence(indent: compactSequence && chance(50) ? indent : indent + 2, depth: depth - 1))
        }
    }

    /// A block mapping with one to four entries at `indent`.
    mutating func blockMapping(indent: Int, depth: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var keys: Set<String> = []
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            if !lines.isEmpty && chance(8) {
                lines.append(String(repeating: " ", count: Int.random(in: 0...indent, using: &random)) + "# comment " + word())
            }
            let name = key(unique: &keys)
            let (inline, more) = value(indent: indent, depth: depth, compactSequence: true)
            lines.append(pad + name + ":" + inline)
            lines += more
        }
        return lines
    }

    /// A block sequence with one to four entries at `indent`.
    mutating func blockSequence(indent: Int, depth: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            if chance(8) { lines.append("") }
            if depth > 0 && chance(20) {
                let nested = blockMapping(indent: indent + 2, depth: depth - 1)
                lines.append(pad + "- " + nested[0].dropFirst(indent + 2))
                lines += nested.dropFirst()
                continue
            }
            let (inline, more) = value(indent: indent, depth: depth, compactSequence: false)
            lines.append(pad + "-" + inline)
            lines += more
        }
        return lines
    }
}
