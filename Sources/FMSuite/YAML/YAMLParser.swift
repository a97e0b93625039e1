/// A parser for the YAML subset that suites are written in.
///
/// Supported: block mappings and sequences, flow `{}` and `[]`, plain / single-quoted / double-quoted
/// scalars, literal `|` and folded `>` block scalars with chomping and indentation indicators, comments,
/// one optional leading `---`, and YAML 1.2 core-schema typing. Anchors, aliases, tags, directives,
/// complex keys, multiple documents and tabs in indentation are rejected with a located error.
public struct YAMLParser {
    /// Parses `text` (the contents of `file`) into a located node tree; an empty document is a null node.
    public static func parse(_ text: String, file: String) throws -> YAMLNode {
        var parser = YAMLParser(text: text, file: file)
        return try parser.parseDocument()
    }

    var bytes: [UInt8]
    var pos = 0
    /// Current nesting of collections, bounded so hostile input cannot exhaust the stack.
    var depth = 0
    /// The deepest nesting accepted.
    static let maximumDepth = 200
    let file: String
    /// The fewest spaces that a continuation line of the flow collection or quoted scalar being read
    /// needs: one more than the indentation of the block collection that holds it (0 at the top level).
    var flowIndent = 0
    /// Index of the first byte of each line.
    var lineStarts: [Int] = [0]
    /// The line the last `lineIndex` lookup found (shared by copies of the parser; only a starting guess).
    let lastLine = LineHint()
    /// The file line the text's first line is (a JSONL line parsed on its own is not line 1).
    var firstLine = 1
    /// The root mapping key whose block sequence `parseDocument` leaves for `nextStreamedEntry` (when it is the
    /// mapping's last key); nil: parse everything.
    var streamKey: String? = nil
    /// Where `parseDocument` stopped to stream; nil when it read the whole document.
    var stream: StreamedSequence? = nil
    /// For text with non-ASCII bytes: the number of Unicode scalars that start before each byte index
    /// (so a column is one subtraction, and locating every node of a long line stays linear); nil for
    /// ASCII text, where columns are byte offsets.
    var scalarsBefore: [UInt32]? = nil

    init(text: String, file: String) {
        self.init(bytes: Array(text.utf8), file: file)
    }

    /// A parser over UTF-8 `bytes` (already checked to be UTF-8), read from `file`.
    init(bytes: [UInt8], file: String) {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // Normalize CRLF to LF; columns and lines are unaffected.
        if bytes.contains(UInt8(ascii: "\r")) {
            var normalized: [UInt8] = []
            normalized.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { continue }
                normalized.append(byte == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : byte)
            }
            bytes = normalized
        }
        self.bytes = bytes
        self.file = file
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
        if bytes.contains(where: { $0 >= 0x80 }) {
            var counts: [UInt32] = []
            counts.reserveCapacity(bytes.count + 1)
            var count: UInt32 = 0
            for byte in bytes {
                counts.append(count)
                if byte & 0xC0 != 0x80 { count += 1 }
            }
            counts.append(count)
            scalarsBefore = counts
        }
    }

    // MARK: - Positions

    /// The line index (0-based) holding byte `index`: the line of the previous lookup or the next one when it
    /// holds it (a parse moves forward, so almost every lookup), else a binary search.
    func lineIndex(of index: Int) -> Int {
        let hint = lastLine.value
        if hint < lineStarts.count, lineStarts[hint] <= index {
            if hint + 1 == lineStarts.count || index < lineStarts[hint + 1] { return hint }
            if hint + 2 == lineStarts.count || index < lineStarts[hint + 2] {
                lastLine.value = hint + 1
                return hint + 1
            }
        }
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        lastLine.value = low
        return low
    }

    /// 0-based column of byte `index`, counted in Unicode scalars.
    func column(of index: Int) -> Int {
        let start = lineStarts[lineIndex(of: index)]
        let end = min(max(index, start), bytes.count)
        guard let scalarsBefore else { return end - start }
        return Int(scalarsBefore[end] - scalarsBefore[start])
    }

    /// The located position of byte `index`.
    func location(_ index: Int) -> SourceLocation {
        SourceLocation(file: file, line: lineIndex(of: index) + firstLine, column: column(of: index) + 1)
    }

    /// An error at byte `index`.
    func error(_ message: String, at index: Int) -> Diagnostic {
        Diagnostic(location(index), message)
    }

    var atEnd: Bool { pos >= bytes.count }
    var current: UInt8 { pos < bytes.count ? bytes[pos] : 0 }
    func byte(at index: Int) -> UInt8 { index < bytes.count && index >= 0 ? bytes[index] : 0 }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    static func isBreakOrEnd(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == 0 }
    static func isSpaceOrEnd(_ byte: UInt8) -> Bool { isBlank(byte) || isBreakOrEnd(byte) }

    /// True when `-` at `index` starts a block sequence entry.
    func isSequenceIndicator(at index: Int) -> Bool {
        byte(at: index) == UInt8(ascii: "-") && YAMLParser.isSpaceOrEnd(byte(at: index + 1))
    }

    // MARK: - Lines

    /// Skips spaces and tabs on the current line.
    mutating func skipBlanks() {
        while YAMLParser.isBlank(current) { pos += 1 }
    }

    /// Skips blank lines and comments so that `pos` is at the next content byte (or the end).
    /// Rejects tabs in indentation and document markers after the first.
    mutating func skipToContent() throws {
        while !atEnd {
            let lineStart = pos == 0 || byte(at: pos - 1) == UInt8(ascii: "\n")
            var index = pos
            var sawTab: Int? = nil
            while YAMLParser.isBlank(byte(at: index)) {
                if byte(at: index) == UInt8(ascii: "\t"), sawTab == nil, lineStart { sawTab = index }
                index += 1
            }
            let next = byte(at: index)
            if next == UInt8(ascii: "#") && (index == pos ? (lineStart || YAMLParser.isBlank(byte(at: pos - 1))) : true) {
                while !YAMLParser.isBreakOrEnd(byte(at: index)) { index += 1 }
            }
            if byte(at: index) == UInt8(ascii: "\n") {
                pos = index + 1
                continue
            }
            if index >= bytes.count { pos = index; return }
            if let tab = sawTab {
                throw error("tab character in indentation; YAML indentation must use spaces", at: tab)
            }
            pos = index
            return
        }
    }

    /// After a node that ended mid-line: only blanks and a comment may follow before the line break.
    mutating func finishLine(after what: String) throws {
        let start = pos
        skipBlanks()
        if current == UInt8(ascii: "#") && (pos > start || YAMLParser.isBlank(byte(at: pos - 1))) {
            while !YAMLParser.isBreakOrEnd(current) { pos += 1 }
        }
        if current == UInt8(ascii: "#") {
            throw error("a comment needs a space before '#'", at: pos)
        }
        guard YAMLParser.isBreakOrEnd(current) else {
            if current == UInt8(ascii: ":") {
                throw error("unexpected ':' after \(what); only plain or quoted single-line scalars can be mapping keys", at: pos)
            }
            throw error("unexpected text after \(what); put it on its own line or quote the whole value", at: pos)
        }
        try skipToContent()
    }

    /// True when `pos` is at the start of a line's content (only blanks before it on the line).
    var atLineContent: Bool {
        var index = pos - 1
        while index >= 0 && YAMLParser.isBlank(bytes[index]) { index -= 1 }
        return index < 0 || bytes[index] == UInt8(ascii: "\n")
    }

    // MARK: - Document

    mutating func parseDocument() throws -> YAMLNode {
        try rejectControlCharacters()
        try skipToContent()
        if atEnd { return YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location(0)) }
        if column(of: pos) == 0 && current == UInt8(ascii: "%") {
            throw error("directives ('%YAML', '%TAG') are not supported; remove the line", at: pos)
        }
        if isDocumentMarker(at: pos, "---") {
            pos += 3
            skipBlanks()
            if !YAMLParser.isBreakOrEnd(current) && current != UInt8(ascii: "#") {
                throw error("content on the '---' line is not supported; start it on the next line", at: pos)
            }
            try skipToContent()
            if atEnd { return YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location(bytes.count)) }
        }
        try checkDocumentMarkers()
        streamKey = streamKey.flatMap { isLastRootKey($0) ? $0 : nil }
        let root = try parseBlockNode(parentIndent: -1, inlineAfterKey: false)
        if stream != nil { return root }
        try finishDocument()
        return root
    }

    /// After the root node: an optional `...` end marker, then nothing.
    mutating func finishDocument() throws {
        if isDocumentMarker(at: pos, "...") {
            pos += 3
            try skipToContent()
            if !atEnd { throw error("multiple documents in one file are not supported; put each suite in its own file", at: pos) }
        }
        if !atEnd {
            try checkDocumentMarkers()
            throw error("unexpected content at indentation \(column(of: pos)); it does not continue the document above — check the indentation", at: pos)
        }
    }

    /// Rejects characters YAML does not allow in a stream: C0 controls other than tab and line breaks,
    /// DEL, and C1 controls other than NEL (U+0085). Escapes in double-quoted scalars can still write them.
    func rejectControlCharacters() throws {
        for (index, byte) in bytes.enumerated() {
            let code: UInt32
            if (byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n")) || byte == 0x7F {
                code = UInt32(byte)
            } else if byte == 0xC2, (0x80...0x9F).contains(self.byte(at: index + 1)), self.byte(at: index + 1) != 0x85 {
                code = UInt32(self.byte(at: index + 1))
            } else {
                continue
            }
            let hex = (code < 0x10 ? "0" : "") + String(code, radix: 16, uppercase: true)
            throw error("control character U+00\(hex) is not allowed in YAML; write it as the escape '\\x\(hex)' inside a double-quoted string, or remove it", at: index)
        }
    }

    func isDocumentMarker(at index: Int, _ marker: String) -> Bool {
        let chars = Array(marker.utf8)
        guard column(of: index) == 0, index + 3 <= bytes.count, Array(bytes[index..<index + 3]) == chars else { return false }
        return YAMLParser.isSpaceOrEnd(byte(at: index + 3))
    }

    /// Rejects `---` / `...` at the current content position.
    func checkDocumentMarkers() throws {
        if isDocumentMarker(at: pos, "---") || isDocumentMarker(at: pos, "...") {
            throw error("multiple documents in one file are not supported; put each suite in its own file", at: pos)
        }
    }

    /// Rejects the YAML constructs outside the subset, at `pos`.
    func rejectUnsupported() throws {
        switch current {
        case UInt8(ascii: "&"): throw error("anchors ('&name') are not supported; repeat the value instead", at: pos)
        case UInt8(ascii: "*"): throw error("aliases ('*name') are not supported; repeat the value instead", at: pos)
        case UInt8(ascii: "!"): throw error("tags ('!tag') are not supported; remove the tag (types come from the core schema)", at: pos)
        case UInt8(ascii: "@"), UInt8(ascii: "`"):
            throw error("'\(Character(Unicode.Scalar(current)))' is reserved in YAML and cannot start a plain scalar; quote the value", at: pos)
        case UInt8(ascii: "?") where YAMLParser.isSpaceOrEnd(byte(at: pos + 1)):
            throw error("complex mapping keys ('? ') are not supported; use a plain or quoted key", at: pos)
        case UInt8(ascii: "%") where column(of: pos) == 0:
            throw error("directives ('%YAML', '%TAG') are not supported; remove the line", at: pos)
        default: return
        }
    }

    // MARK: - Block structure

    /// Parses the node at `pos`. `parentIndent` is the indentation of the enclosing block collection;
    /// `inlineAfterKey` is true for a value on the same line as its mapping key.
    mutating func parseBlockNode(parentIndent: Int, inlineAfterKey: Bool) throws -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        try rejectUnsupported()
        let start = pos
        let indent = column(of: pos)
        if isSequenceIndicator(at: pos) {
            if inlineAfterKey {
                throw error("a block sequence cannot start on the same line as its key; move '- ' to the next line", at: pos)
            }
            return try parseBlockSequence(indent: indent)
        }
        switch current {
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try parseBlockScalar(parentIndent: parentIndent)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            flowIndent = parentIndent + 1
            let node = try parseFlowCollection()
            try finishLine(after: "a flow collection")
            return node
        default:
            break
        }
        if try isImplicitKey() {
            if inlineAfterKey {
                throw error("a nested mapping cannot start on the same line as its key ('a: b: c'); quote the value if it is text containing ': ', or put the mapping on the next line, indented", at: start)
            }
            return try parseBlockMapping(indent: indent)
        }
        switch current {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            flowIndent = parentIndent + 1
            let node = try parseQuotedScalar()
            try finishLine(after: "a quoted scalar")
            return node
        default:
            let node = try parsePlainScalar(parentIndent: parentIndent, flow: false)
            try finishLine(after: "a plain scalar")
            return node
        }
    }

    /// Counts one level of nesting; deeper than `maximumDepth` is an error.
    mutating func enter() throws {
        depth += 1
        if depth > YAMLParser.maximumDepth {
            throw error("nesting deeper than \(YAMLParser.maximumDepth) levels; flatten the structure", at: pos)
        }
    }

    /// True when the content at `pos` is `key:` followed by a blank or line end (a block mapping key).
    func isImplicitKey() throws -> Bool {
        var index = pos
        let first = byte(at: index)
        if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
            index += 1
            while index < bytes.count {
                let b = bytes[index]
                if b == UInt8(ascii: "\n") { return false }
                if first == UInt8(ascii: "'") && b == UInt8(ascii: "'") {
                    if byte(at: index + 1) == UInt8(ascii: "'") { index += 2; continue }
                    break
                }
                if first == UInt8(ascii: "\"") {
                    if b == UInt8(ascii: "\\") { index += 2; continue }
                    if b == UInt8(ascii: "\"") { break }
                }
                index += 1
            }
            index += 1
            while YAMLParser.isBlank(byte(at: index)) { index += 1 }
            return byte(at: index) == UInt8(ascii: ":") && YAMLParser.isSpaceOrEnd(byte(at: index + 1))
        }
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
            let b = bytes[index]
            if b == UInt8(ascii: "#") && YAMLParser.isBlank(byte(at: index - 1)) { return false }
            if b == UInt8(ascii: ":") && YAMLParser.isSpaceOrEnd(byte(at: index + 1)) { return true }
            index += 1
        }
        return false
    }

    mutating func parseBlockSequence(indent: Int) throws -> YAMLNode {
        let start = location(pos)
        var items: [YAMLNode] = []
        repeat {
            items.append(try parseSequenceEntry(indent: indent))
        } while try sequenceContinues(indent: indent, start: start)
        return YAMLNode(.sequence(items), at: start)
    }

    /// The entry of the block sequence indented `indent` whose `-` is at `pos`.
    mutating func parseSequenceEntry(indent: Int) throws -> YAMLNode {
        let dash = pos
        pos += 1
        skipBlanks()
        if let tab = bytes[dash + 1..<pos].firstIndex(of: UInt8(ascii: "\t")), try isSequenceIndicator(at: pos) || isImplicitKey() {
            throw error("tab character before a nested block collection; separate it from '-' with spaces", at: tab)
        }
        if YAMLParser.isBreakOrEnd(current) || (current == UInt8(ascii: "#")) {
            try skipToContent()
            if atEnd || column(of: pos) <= indent {
                return YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location(dash + 1))
            }
        }
        return try parseBlockNode(parentIndent: indent, inlineAfterKey: false)
    }

    /// After an entry of the block sequence indented `indent` (which starts at `start`): whether another follows.
    mutating func sequenceContinues(indent: Int, start: SourceLocation) throws -> Bool {
        if atEnd { return false }
        let next = column(of: pos)
        if next > indent {
            throw error("unexpected indentation (\(next) spaces) inside the sequence that starts at \(start.line):\(start.column) (indented \(indent)); align '- ' entries", at: pos)
        }
        if next < indent || !isSequenceIndicator(at: pos) || isDocumentMarker(at: pos, "...") { return false }
        try checkDocumentMarkers()
        return true
    }

    mutating func parseBlockMapping(indent: Int) throws -> YAMLNode {
        let start = location(pos)
        var entries: [YAMLNode.Entry] = []
        var seen: [String: SourceLocation] = [:]
        while true {
            try checkMappingKey(mappingStart: start)
            let keyStart = pos
            let key = try parseKey()
            let name = key.scalar?.text ?? ""
            if let first = seen[name] {
                throw error("duplicate key '\(name)' (first defined at \(first.line):\(first.column)); remove one", at: keyStart)
            }
            seen[name] = key.location
            skipBlanks()
            pos += 1 // the ':'
            let afterColon = pos
            skipBlanks()
            let value: YAMLNode
            if YAMLParser.isBreakOrEnd(current) || current == UInt8(ascii: "#") {
                try skipToContent()
                if depth == 1, name == streamKey, !atEnd, column(of: pos) >= indent, isSequenceIndicator(at: pos) {
                    let column = column(of: pos)
                    stream = StreamedSequence(indent: column, start: location(pos), depth: column > indent ? 2 : 1,
                                              mappingIndent: indent, mappingStart: start, key: key.location)
                    entries.append(YAMLNode.Entry(key: key, value: YAMLNode(.sequence([]), at: location(pos))))
                    return YAMLNode(.mapping(entries), at: start)
                }
                if !atEnd && column(of: pos) > indent {
                    value = try parseBlockNode(parentIndent: indent, inlineAfterKey: false)
                } else if !atEnd && column(of: pos) == indent && isSequenceIndicator(at: pos) {
                    value = try parseBlockSequence(indent: indent)
                } else {
                    value = YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location(afterColon))
                }
            } else {
                value = try parseBlockNode(parentIndent: indent, inlineAfterKey: true)
            }
            entries.append(YAMLNode.Entry(key: key, value: value))
            if try !mappingContinues(indent: indent, afterKey: name, at: key.location) { break }
        }
        return YAMLNode(.mapping(entries), at: start)
    }

    /// Checks that a block mapping key (of the mapping starting at `mappingStart`) starts at `pos`.
    func checkMappingKey(mappingStart start: SourceLocation) throws {
        try rejectUnsupported()
        guard !isSequenceIndicator(at: pos), try isImplicitKey() else {
            if isSequenceIndicator(at: pos) {
                throw error("a sequence entry '- ' where a mapping key was expected; indent it under a key, or align it with its siblings", at: pos)
            }
            throw error("expected 'key: value' at this indentation (the mapping starts at \(start.line):\(start.column))", at: pos)
        }
    }

    /// After the value of the key `name` (at `key`) of a block mapping indented `indent`: whether another key
    /// of the mapping follows.
    mutating func mappingContinues(indent: Int, afterKey name: String, at key: SourceLocation) throws -> Bool {
        if atEnd { return false }
        let next = column(of: pos)
        if next > indent {
            throw error("unexpected indentation (\(next) spaces) after the value of key '\(name)' at \(key.line):\(key.column); align the line with the keys of a mapping above, or indent it under a key", at: pos)
        }
        if next < indent || isDocumentMarker(at: pos, "...") { return false }
        try checkDocumentMarkers()
        return true
    }

    /// A block mapping key: a single-line plain or quoted scalar (pos is left at the ':').
    mutating func parseKey() throws -> YAMLNode {
        if current == UInt8(ascii: "'") || current == UInt8(ascii: "\"") {
            return try parseQuotedScalar()
        }
        let start = pos
        if current != UInt8(ascii: ":") { try checkPlainStart(flow: false) }
        while !(current == UInt8(ascii: ":") && YAMLParser.isSpaceOrEnd(byte(at: pos + 1))) { pos += 1 }
        var end = pos
        while end > start && YAMLParser.isBlank(bytes[end - 1]) { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        if let first = text.utf8.first, [UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ",")].contains(first) {
            throw error("a mapping key cannot start with '\(Character(Unicode.Scalar(first)))'; quote the key", at: start)
        }
        return try plainNode(text, at: start)
    }
}

/// A mutable line number a non-mutating lookup can update.
final class LineHint {
    var value = 0
}
