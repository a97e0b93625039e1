extension YAMLParser {
    /// Skips blanks, line breaks and comments inside a flow collection.
    mutating func skipFlowSpace(in name: String, opened: SourceLocation) throws {
        var crossedLine = false
        while pos < bytes.count {
            let b = bytes[pos]
            if YAMLParser.isBlank(b) || b == UInt8(ascii: "\n") {
                pos += 1
                if b == UInt8(ascii: "\n") {
                    crossedLine = true
                    var spaces = 0
                    while byte(at: pos + spaces) == UInt8(ascii: " ") { spaces += 1 }
                    if spaces < flowIndent && byte(at: pos + spaces) == UInt8(ascii: "\t") {
                        throw error("tab character in indentation inside the \(name) opened at \(opened.line):\(opened.column); indent with at least \(flowIndent) spaces before any tab", at: pos + spaces)
                    }
                }
            } else if b == UInt8(ascii: "#") && (pos == 0 || YAMLParser.isSpaceOrEnd(bytes[pos - 1])) {
                while !YAMLParser.isBreakOrEnd(current) { pos += 1 }
            } else {
                if atLineContent { try checkDocumentMarkers() }
                if crossedLine { try checkFlowContinuation("the \(name) opened at \(opened.line):\(opened.column)") }
                return
            }
        }
    }

    /// After a line break inside a flow collection or a quoted scalar (pos at the next content): the
    /// line must be indented at least `flowIndent` spaces, more than the block collection holding it.
    func checkFlowContinuation(_ what: String) throws {
        let lineStart = lineStarts[lineIndex(of: pos)]
        var spaces = 0
        while byte(at: lineStart + spaces) == UInt8(ascii: " ") { spaces += 1 }
        if spaces < flowIndent {
            throw error("this line continues \(what) but is indented \(spaces) space\(spaces == 1 ? "" : "s"); indent it at least \(flowIndent), more than the block it belongs to", at: pos)
        }
    }

    /// A `[ … ]` or `{ … }` collection (pos at the opening bracket); may span lines.
    mutating func parseFlowCollection() throws -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        let start = pos
        let isSequence = current == UInt8(ascii: "[")
        let close = isSequence ? UInt8(ascii: "]") : UInt8(ascii: "}")
        let name = isSequence ? "flow sequence '['" : "flow mapping '{'"
        let opened = location(start)
        pos += 1
        var items: [YAMLNode] = []
        var entries: [YAMLNode.Entry] = []
        var seen: [String: SourceLocation] = [:]
        while true {
            try skipFlowSpace(in: name, opened: opened)
            guard !atEnd else {
                throw error("unterminated \(name) opened at \(opened.line):\(opened.column); add the closing '\(Character(Unicode.Scalar(close)))'", at: start)
            }
            if current == close { pos += 1; break }
            if current == UInt8(ascii: ",") {
                throw error("empty entry in \(name) opened at \(opened.line):\(opened.column); remove the extra ','", at: pos)
            }
            let itemStart = pos
            let item = try parseFlowNode()
            try skipFlowSpace(in: name, opened: opened)
            if isSequence {
                if current == UInt8(ascii: ":") {
                    throw error("'key: value' pairs inside [ ] are not supported; write {key: value}", at: pos)
                }
                items.append(item)
            } else {
                guard let keyText = item.scalar?.text else {
                    throw error("a mapping key must be a scalar, not \(item.kindName)", at: itemStart)
                }
                if let first = seen[keyText] {
                    throw error("duplicate key '\(keyText)' (first defined at \(first.line):\(first.column)); remove one", at: itemStart)
                }
                seen[keyText] = item.location
                var value = YAMLNode(.scalar(YAMLScalar(text: "", style: .plain)), at: location(pos))
                if current == UInt8(ascii: ":") {
                    pos += 1
                    try skipFlowSpace(in: name, opened: opened)
                    if current != UInt8(ascii: ",") && current != close {
                        guard !atEnd else {
                            throw error("unterminated \(name) opened at \(opened.line):\(opened.column); add the closing '\(Character(Unicode.Scalar(close)))'", at: start)
                        }
                        value = try parseFlowNode()
                        try skipFlowSpace(in: name, opened: opened)
                    }
                }
                entries.append(YAMLNode.Entry(key: item, value: value))
            }
            if current == UInt8(ascii: ",") { pos += 1; continue }
            if current == close { pos += 1; break }
            guard !atEnd else {
                throw error("unterminated \(name) opened at \(opened.line):\(opened.column); add the closing '\(Character(Unicode.Scalar(close)))'", at: start)
            }
            let expected = isSequence ? "',' or ']'" : "',', ':' or '}'"
            throw error("expected \(expected) in the \(name) opened at \(opened.line):\(opened.column) (plain scalars inside [ ] / { } end at a line break; quote longer text)", at: pos)
        }
        return YAMLNode(isSequence ? .sequence(items) : .mapping(entries), at: opened)
    }

    /// One node inside a flow collection.
    mutating func parseFlowNode() throws -> YAMLNode {
        try rejectUnsupported()
        switch current {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return try parseFlowCollection()
        case UInt8(ascii: "'"), UInt8(ascii: "\""): return try parseQuotedScalar()
        default:
            if current == UInt8(ascii: ":") && YAMLParser.isSpaceOrEnd(byte(at: pos + 1)) {
                throw error("empty key before ':'; write a key or quote ':'", at: pos)
            }
            return try parsePlainScalar(parentIndent: 0, flow: true)
        }
    }
}
