/// A block sequence under the root mapping's last key, left unread by `parseDocument` so that its entries
/// can be parsed one at a time: a suite with a million inline cases never holds their nodes all at once.
public final class YAMLEntryStream {
    private var parser: YAMLParser

    init(_ parser: YAMLParser) { self.parser = parser }

    /// The next entry in document order, nil after the last; throws the first syntax error at or after it
    /// (including any in the rest of the document), located as a whole-document parse would locate it.
    public func next() throws -> YAMLNode? { try parser.nextStreamedEntry() }
}

extension YAMLParser {
    /// Where `parseDocument` stopped when it met the streamed key's block sequence.
    struct StreamedSequence {
        /// The sequence's indentation and first entry.
        let indent: Int, start: SourceLocation
        /// The nesting of the sequence, as a whole-document parse counts it (for the depth limit).
        let depth: Int
        /// The root mapping's indentation and start, and the streamed key's position (for errors after the
        /// sequence).
        let mappingIndent: Int, mappingStart: SourceLocation, key: SourceLocation
        /// Whether the last entry has been read.
        var finished = false
    }

    /// Parses `bytes` (UTF-8, the contents of `file`) into a located node tree, except that when `key` is the
    /// last key of the root block mapping, written once, and holds a block sequence, that sequence comes back
    /// empty and its entries are read from the returned stream instead (nil when nothing was left unread).
    public static func parse(bytes: [UInt8], file: String, streaming key: String) throws
        -> (root: YAMLNode, entries: YAMLEntryStream?) {
        var parser = YAMLParser(bytes: bytes, file: file)
        parser.streamKey = key
        let root = try parser.parseDocument()
        return (root, parser.stream == nil ? nil : YAMLEntryStream(parser))
    }

    /// Whether `key` is written exactly once as a key of a block mapping at the document's left edge, and
    /// after every other such key. Only column-0 lines are looked at: in the subset suites are written in,
    /// nothing nested (block scalars, continuation lines of flow collections and quoted scalars) can start
    /// there, so every other column-0 content line is a sequence entry, a comment or a document marker.
    func isLastRootKey(_ key: String) -> Bool {
        let prefix = Array(key.utf8) + [UInt8(ascii: ":")]
        var found = 0, last = false
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let isContent = !YAMLParser.isSpaceOrEnd(first) && first != UInt8(ascii: "#")
                && !isSequenceIndicator(at: index) && !isMarkerLine(at: index)
            if isContent {
                last = bytes[index...].starts(with: prefix) && YAMLParser.isSpaceOrEnd(byte(at: index + prefix.count))
                if last { found += 1 }
            }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            index = end + 1
        }
        return found == 1 && last
    }

    /// Whether the line starting at `index` begins with a `---` or `...` document marker.
    private func isMarkerLine(at index: Int) -> Bool {
        let three = bytes[index..<min(index + 3, bytes.count)]
        return (three.elementsEqual("---".utf8) || three.elementsEqual("...".utf8))
            && YAMLParser.isSpaceOrEnd(byte(at: index + 3))
    }

    /// The streamed sequence's next entry; after the last, checks the rest of the document as the root
    /// mapping and the document would have.
    mutating func nextStreamedEntry() throws -> YAMLNode? {
        guard var sequence = stream, !sequence.finished else { return nil }
        depth = sequence.depth
        let entry = try parseSequenceEntry(indent: sequence.indent)
        if try !sequenceContinues(indent: sequence.indent, start: sequence.start) {
            sequence.finished = true
            stream = sequence
            try finishStreamedMapping(sequence)
            try finishDocument()
        }
        return entry
    }

    /// After the streamed sequence: what the root mapping's loop would accept after its value. Only the end
    /// of the mapping can follow the key found last; anything else is the error that loop reports.
    private mutating func finishStreamedMapping(_ sequence: StreamedSequence) throws {
        guard try mappingContinues(indent: sequence.mappingIndent, afterKey: streamKey ?? "", at: sequence.key) else {
            return
        }
        try checkMappingKey(mappingStart: sequence.mappingStart)
        throw error("a key after '\(streamKey ?? "")', which was read as the mapping's last key; move it above",
                    at: pos)
    }
}
