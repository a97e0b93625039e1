extension YAMLParser {
    // MARK: - Plain scalars

    /// A plain scalar. In block context it may continue on following lines indented more than
    /// `parentIndent` (folded with spaces); in flow context it ends at the line break.
    mutating func parsePlainScalar(parentIndent: Int, flow: Bool) throws -> YAMLNode {
        try rejectUnsupported()
        let start = pos
        let first = current
        if [UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ",")].contains(first) {
            throw error("unexpected '\(Character(Unicode.Scalar(first)))'; quote the value if it is text", at: pos)
        }
        if first == UInt8(ascii: "|") || first == UInt8(ascii: ">") {
            throw error("block scalars ('|', '>') cannot appear inside [ ] or { }; use a quoted string", at: pos)
        }
        if flow && isSequenceIndicator(at: pos) {
            throw error("block sequence entries ('- ') cannot appear inside [ ] or { }; separate items with commas", at: pos)
        }
        try checkPlainStart(flow: flow)
        var text = scanPlainLine(flow: flow)
        guard !flow else { return try plainNode(text, at: start) }
        // Block context: fold continuation lines indented more than the parent.
        while true {
            let save = pos
            skipBlanks()
            guard YAMLParser.isBreakOrEnd(current) else { pos = save; break }
            var breaks = 0
            var index = pos
            var lineContent = index
            while index < bytes.count && bytes[index] == UInt8(ascii: "\n") {
                breaks += 1
                index += 1
                lineContent = index
                while YAMLParser.isBlank(byte(at: lineContent)) { lineContent += 1 }
                if byte(at: lineContent) == UInt8(ascii: "\n") { index = lineContent } else { break }
            }
            let indentEnd = index + (bytes[index...].prefix { $0 == UInt8(ascii: " ") }.count)
            guard lineContent < bytes.count, indentEnd - index > parentIndent, byte(at: lineContent) != UInt8(ascii: "#"),
                  !isDocumentMarker(at: index, "---"), !isDocumentMarker(at: index, "...") else {
                pos = save
                break
            }
            if indentEnd < lineContent && byte(at: indentEnd) == UInt8(ascii: "\t") {
                throw error("tab character in indentation; YAML indentation must use spaces", at: indentEnd)
            }
            pos = lineContent
            if try isImplicitKey() {
                throw error("'key:' inside a multi-line plain scalar; fix the indentation or quote the value", at: pos)
            }
            text += breaks == 1 ? " " : String(repeating: "\n", count: breaks - 1)
            text += scanPlainLine(flow: false)
        }
        return try plainNode(text, at: start)
    }

    /// A plain scalar node for `text` that starts at byte `start`; a number without an exact value is an error.
    func plainNode(_ text: String, at start: Int) throws -> YAMLNode {
        if let problem = ScalarValue.rangeProblem(plain: text) { throw error(problem, at: start) }
        return YAMLNode(.scalar(YAMLScalar(text: text, style: .plain)), at: location(start))
    }

    /// Rejects a plain scalar (or key) at `pos` that starts with an indicator: `#`, `%`, or a `-`, `?`
    /// or `:` followed by a blank (or, inside [ ] / { }, by a flow indicator).
    func checkPlainStart(flow: Bool) throws {
        let first = current
        if first == UInt8(ascii: "#") {
            throw error("'#' starts a comment only after a space; add the space, or quote the value if it is text", at: pos)
        }
        if first == UInt8(ascii: "%") {
            throw error("'%' cannot start a plain scalar; quote the value", at: pos)
        }
        let next = byte(at: pos + 1)
        if [UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":")].contains(first),
           YAMLParser.isSpaceOrEnd(next) || (flow && isFlowIndicator(next)) {
            throw error("'\(Character(Unicode.Scalar(first)))' alone is an indicator, not a value; quote it", at: pos)
        }
    }

    /// The rest of a plain scalar on the current line, without trailing blanks.
    mutating func scanPlainLine(flow: Bool) -> String {
        let start = pos
        var end = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\n") { break }
            if b == UInt8(ascii: "#") && pos > start && YAMLParser.isBlank(bytes[pos - 1]) { break }
            if b == UInt8(ascii: ":") {
                let next = byte(at: pos + 1)
                if YAMLParser.isSpaceOrEnd(next) { break }
                if flow && isFlowIndicator(next) { break }
            }
            if flow && isFlowIndicator(b) { break }
            pos += 1
            if !YAMLParser.isBlank(b) { end = pos }
        }
        pos = end
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    func isFlowIndicator(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ",") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "{") || b == UInt8(ascii: "}")
    }

    // MARK: - Quoted scalars

    /// A single- or double-quoted scalar, possibly spanning lines (line breaks fold to spaces).
    mutating func parseQuotedScalar() throws -> YAMLNode {
        let start = pos
        let quote = current
        let double = quote == UInt8(ascii: "\"")
        pos += 1
        var out: [UInt8] = []
        var protected = 0 // bytes of `out` that trailing-blank trimming must keep (escapes)
        while true {
            guard pos < bytes.count else {
                throw error("unterminated \(double ? "double" : "single")-quoted string; add the closing \(double ? "\"" : "'")", at: start)
            }
            let b = bytes[pos]
            if b == quote {
                if !double && byte(at: pos + 1) == quote {
                    out.append(quote)
                    pos += 2
                    continue
                }
                pos += 1
                break
            }
            if b == UInt8(ascii: "\n") {
                while out.count > protected, let last = out.last, YAMLParser.isBlank(last) { out.removeLast() }
                var breaks = 0
                while pos < bytes.count && (bytes[pos] == UInt8(ascii: "\n") || YAMLParser.isBlank(bytes[pos])) {
                    if bytes[pos] == UInt8(ascii: "\n") { breaks += 1 }
                    pos += 1
                }
                if isDocumentMarker(at: pos, "---") || isDocumentMarker(at: pos, "...") {
                    throw error("unterminated quoted string: a document marker appears before the closing quote", at: start)
                }
                if pos < bytes.count { try checkFlowContinuation("a quoted string") }
                if breaks == 1 { out.append(UInt8(ascii: " ")) } else { out += Array(repeating: UInt8(ascii: "\n"), count: breaks - 1) }
                continue
            }
            if double && b == UInt8(ascii: "\\") {
                try parseEscape(into: &out)
                protected = out.count
                continue
            }
            out.append(b)
            pos += 1
        }
        return YAMLNode(.scalar(YAMLScalar(text: String(decoding: out, as: UTF8.self), style: double ? .doubleQuoted : .singleQuoted)), at: location(start))
    }

    /// One `\` escape in a double-quoted scalar (pos at the backslash).
    mutating func parseEscape(into out: inout [UInt8]) throws {
        let start = pos
        pos += 1
        let c = current
        pos += 1
        let simple: [UInt8: String] = [
            UInt8(ascii: "0"): "\0", UInt8(ascii: "a"): "\u{07}", UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "t"): "\t",
            UInt8(ascii: "\t"): "\t", UInt8(ascii: "n"): "\n", UInt8(ascii: "v"): "\u{0B}", UInt8(ascii: "f"): "\u{0C}",
            UInt8(ascii: "r"): "\r", UInt8(ascii: "e"): "\u{1B}", UInt8(ascii: " "): " ", UInt8(ascii: "\""): "\"",
            UInt8(ascii: "/"): "/", UInt8(ascii: "\\"): "\\", UInt8(ascii: "N"): "\u{85}", UInt8(ascii: "_"): "\u{A0}",
            UInt8(ascii: "L"): "\u{2028}", UInt8(ascii: "P"): "\u{2029}",
        ]
        if let text = simple[c] {
            out += Array(text.utf8)
            return
        }
        if c == UInt8(ascii: "\n") {
            skipBlanks()
            try checkFlowContinuation("a quoted string")
            return
        }
        let width: Int
        switch c {
        case UInt8(ascii: "x"): width = 2
        case UInt8(ascii: "u"): width = 4
        case UInt8(ascii: "U"): width = 8
        default:
            let shown = c == 0 ? "end of file" : String(decoding: [c], as: UTF8.self)
            throw error("unknown escape '\\\(shown)' in a double-quoted string; write '\\\\' for a backslash or use single quotes", at: start)
        }
        var value = try hexDigits(width, escapeStart: start)
        if (0xD800...0xDBFF).contains(value), byte(at: pos) == UInt8(ascii: "\\"), byte(at: pos + 1) == UInt8(ascii: "u") {
            let save = pos
            pos += 2
            let low = try hexDigits(4, escapeStart: save)
            if (0xDC00...0xDFFF).contains(low) {
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else {
                pos = save
            }
        }
        guard let scalar = Unicode.Scalar(UInt32(value)) else {
            throw error("escape '\\\(Character(Unicode.Scalar(c)))' names U+\(String(value, radix: 16, uppercase: true)), which is not a Unicode scalar", at: start)
        }
        out += Array(String(Character(scalar)).utf8)
    }

    mutating func hexDigits(_ count: Int, escapeStart: Int) throws -> Int {
        var value = 0
        for _ in 0..<count {
            guard let digit = Int(String(decoding: [current], as: UTF8.self), radix: 16), current != 0 else {
                throw error("escape needs \(count) hexadecimal digits", at: escapeStart)
            }
            value = value * 16 + digit
            pos += 1
        }
        return value
    }

    // MARK: - Block scalars

    /// A literal (`|`) or folded (`>`) block scalar with optional chomping (`-`/`+`) and indentation indicators.
    mutating func parseBlockScalar(parentIndent: Int) throws -> YAMLNode {
        let start = pos
        let literal = current == UInt8(ascii: "|")
        pos += 1
        var chomp: UInt8? = nil
        var explicitIndent: Int? = nil
        for _ in 0..<2 {
            if current == UInt8(ascii: "-") || current == UInt8(ascii: "+") {
                if chomp != nil { throw error("block scalar header has two chomping indicators", at: pos) }
                chomp = current
                pos += 1
            } else if current >= UInt8(ascii: "1") && current <= UInt8(ascii: "9") {
                if explicitIndent != nil { throw error("block scalar header has two indentation indicators", at: pos) }
                explicitIndent = Int(current - UInt8(ascii: "0"))
                pos += 1
            }
        }
        let headerEnd = pos
        skipBlanks()
        if current == UInt8(ascii: "#") && pos > headerEnd {
            while !YAMLParser.isBreakOrEnd(current) { pos += 1 }
        }
        guard YAMLParser.isBreakOrEnd(current) else {
            throw error("unexpected text after the block scalar header; the content starts on the next line (headers allow '|', '>', '-', '+', a digit 1-9 and a comment)", at: pos)
        }
        if !atEnd { pos += 1 }
        let base = max(parentIndent, 0)
        var contentIndent = explicitIndent.map { parentIndent < 0 ? $0 : base + $0 }
        var lines: [[UInt8]] = []
        // Whitespace-only lines before the indentation is known (auto-detection): resolved once it is.
        var leading: [(start: Int, line: ArraySlice<UInt8>)] = []
        while pos < bytes.count {
            let lineStart = pos
            var lineEnd = pos
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = bytes[lineStart..<lineEnd]
            let spaces = line.prefix { $0 == UInt8(ascii: " ") }.count
            let following = lineEnd < bytes.count ? lineEnd + 1 : lineEnd
            guard let indent = contentIndent else {
                if line.allSatisfy(YAMLParser.isBlank) { leading.append((lineStart, line)); pos = following; continue }
                if spaces <= parentIndent { break }
                contentIndent = spaces
                lines = try resolveLeadingLines(leading, indent: spaces)
                lines.append(Array(line.dropFirst(spaces)))
                pos = following
                continue
            }
            if spaces == line.count {
                lines.append(spaces > indent ? Array(line.dropFirst(indent)) : [])
                pos = following
                continue
            }
            if spaces < indent && line[lineStart + spaces] == UInt8(ascii: "\t") { throw blockScalarTab(at: lineStart + spaces, indent: indent) }
            guard spaces >= indent else { break }
            lines.append(Array(line.dropFirst(indent)))
            pos = following
        }
        if contentIndent == nil { lines = try resolveLeadingLines(leading, indent: nil) }
        // A break at a less-indented line left pos at that line's start.
        let missingFinalBreak = pos == bytes.count && bytes.last != UInt8(ascii: "\n")
        let text = YAMLParser.assembleBlockScalar(lines: lines, literal: literal, chomp: chomp, missingFinalBreak: missingFinalBreak)
        let node = YAMLNode(.scalar(YAMLScalar(text: text, style: literal ? .literal : .folded)), at: location(start))
        try skipToContent()
        return node
    }

    /// The content of the whitespace-only lines that open a block scalar whose indentation was detected
    /// as `indent` (nil: the scalar has no text line). A line with more spaces than the indentation, or
    /// with a tab inside the indentation, is an error.
    func resolveLeadingLines(_ leading: [(start: Int, line: ArraySlice<UInt8>)], indent: Int?) throws -> [[UInt8]] {
        try leading.map { start, line in
            let spaces = line.prefix { $0 == UInt8(ascii: " ") }.count
            if spaces < line.count {
                guard let indent, spaces >= indent else { throw blockScalarTab(at: start + spaces, indent: indent) }
                return Array(line.dropFirst(indent))
            }
            if let indent, spaces > indent {
                throw error("this empty line of the block scalar has \(spaces) spaces, more than its first text line (\(indent)); remove the extra spaces", at: start)
            }
            return []
        }
    }

    /// The error for a tab inside the indentation of a block scalar line.
    func blockScalarTab(at index: Int, indent: Int?) -> Diagnostic {
        let needed = indent.map { "at least \($0) spaces (the scalar's indentation)" } ?? "spaces"
        return error("tab character in the indentation of a block scalar line; indent it with \(needed) — a tab is text only after the indentation", at: index)
    }

    /// Joins block scalar content lines (indentation removed) by the literal or folded rules and chomping;
    /// `missingFinalBreak` says the last line ended the file without a line break (so there is none to keep).
    static func assembleBlockScalar(lines: [[UInt8]], literal: Bool, chomp: UInt8?, missingFinalBreak: Bool) -> String {
        let breaks = missingFinalBreak ? 1 : 0
        guard let lastContent = lines.lastIndex(where: { !$0.isEmpty }) else {
            return chomp == UInt8(ascii: "+") ? String(repeating: "\n", count: max(lines.count - breaks, 0)) : ""
        }
        var out: [UInt8] = []
        var pendingBreaks = 0
        var previousMoreIndented: Bool? = nil
        for line in lines[...lastContent] {
            if line.isEmpty { pendingBreaks += 1; continue }
            let moreIndented = isBlank(line[0])
            if let previous = previousMoreIndented {
                if literal || previous || moreIndented {
                    out += Array(repeating: UInt8(ascii: "\n"), count: pendingBreaks + 1)
                } else {
                    out += pendingBreaks == 0 ? [UInt8(ascii: " ")] : Array(repeating: UInt8(ascii: "\n"), count: pendingBreaks)
                }
            } else {
                out += Array(repeating: UInt8(ascii: "\n"), count: pendingBreaks)
            }
            out += line
            previousMoreIndented = moreIndented
            pendingBreaks = 0
        }
        let trailing = lines.count - 1 - lastContent
        switch chomp {
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "+"): out += Array(repeating: UInt8(ascii: "\n"), count: trailing + 1 - breaks)
        default: if trailing > 0 || !missingFinalBreak { out.append(UInt8(ascii: "\n")) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
