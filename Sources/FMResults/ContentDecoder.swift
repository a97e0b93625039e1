import FMCore

/// Decodes any `Decodable` from a `GeneratedContent` JSON value parsed by FMCore's own parser.
///
/// Foundation's `JSONDecoder` took 10–45 s for a 10,000-case results file, because
/// `GeneratedContent.init(from:)` probes each value's shape by catching decoding errors. Parsing the
/// text once (≈ 0.5 s) and decoding from the tree, with transcripts, schemas and tool calls taken
/// whole, makes reports from a results file about as fast as the run that wrote it.
public enum ContentDecoder {
    /// Decodes `type` from `content`; errors are `DecodingError`s carrying the coding path.
    public static func decode<Value: Decodable>(_ type: Value.Type, from content: GeneratedContent) throws -> Value {
        try decode(type, from: content, codingPath: [])
    }

    /// Decodes at `codingPath`, taking values that carry their own JSON form directly.
    static func decode<Value: Decodable>(_ type: Value.Type, from content: GeneratedContent, codingPath: [CodingKey]) throws -> Value {
        do {
            switch type {
            case is GeneratedContent.Type: return content as! Value
            case is Transcript.Type: return try Transcript(content: content) as! Value
            case is GenerationSchema.Type: return try GenerationSchema(content: content) as! Value
            case is ToolCall.Type: return try ToolCall(content: content) as! Value
            default: return try Value(from: TreeDecoder(content: content, codingPath: codingPath))
            }
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }
}

/// The `Decoder` over one node of the tree.
private struct TreeDecoder: Decoder {
    let content: GeneratedContent
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .structure(let properties, _) = content.kind else {
            throw mismatch([String: Any].self, content, codingPath)
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(properties: properties, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let elements) = content.kind else { throw mismatch([Any].self, content, codingPath) }
        return TreeUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        TreeSingleValue(content: content, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ content: GeneratedContent, _ path: [CodingKey]) -> DecodingError {
    DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(content.typeName)"))
}

/// Reads scalars from one node.
private func scalar<Value>(_ type: Value.Type, _ content: GeneratedContent, _ path: [CodingKey]) throws -> Value {
    switch (type, content.kind) {
    case (is Bool.Type, .bool(let value)): return value as! Value
    case (is String.Type, .string(let value)): return value as! Value
    case (is Double.Type, .number(let value)): return value as! Value
    case (is Float.Type, .number(let value)): return Float(value) as! Value
    default: break
    }
    if case .number(let value) = content.kind, let integer = integerValue(type, value) { return integer as! Value }
    if content.isNull {
        throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
    }
    throw mismatch(type, content, path)
}

/// True for the types `scalar` reads.
private func isScalar(_ type: Any.Type) -> Bool {
    type is Bool.Type || type is String.Type || type is Double.Type || type is Float.Type || integerValue(type, 0) != nil
}

private func integerValue(_ type: Any.Type, _ value: Double) -> Any? {
    switch type {
    case is Int.Type: return Int(exactly: value)
    case is Int64.Type: return Int64(exactly: value)
    case is Int32.Type: return Int32(exactly: value)
    case is Int16.Type: return Int16(exactly: value)
    case is Int8.Type: return Int8(exactly: value)
    case is UInt.Type: return UInt(exactly: value)
    case is UInt64.Type: return UInt64(exactly: value)
    case is UInt32.Type: return UInt32(exactly: value)
    case is UInt16.Type: return UInt16(exactly: value)
    case is UInt8.Type: return UInt8(exactly: value)
    default: return nil
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let properties: [String: GeneratedContent]
    let codingPath: [CodingKey]
    var allKeys: [Key] { properties.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { properties[key.stringValue] != nil }

    private func value(_ key: Key) throws -> GeneratedContent {
        guard let value = properties[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing key '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, value(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, value(key), codingPath + [key]) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ContentDecoder.decode(type, from: value(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(content: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try TreeDecoder(content: value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder {
        TreeDecoder(content: GeneratedContent(properties: properties.map { ($0.key, $0.value) }), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> Decoder { TreeDecoder(content: try value(key), codingPath: codingPath + [key]) }
}

private struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [GeneratedContent]
    let codingPath: [CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [GeneratedContent], codingPath: [CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    private mutating func next() throws -> (GeneratedContent, [CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (content, path) = try next()
        return try ContentDecoder.decode(type, from: content, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (content, path) = try next()
        return try TreeDecoder(content: content, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let (content, path) = try next()
        return try TreeDecoder(content: content, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> Decoder {
        let (content, path) = try next()
        return TreeDecoder(content: content, codingPath: path)
    }
}

private struct TreeSingleValue: SingleValueDecodingContainer {
    let content: GeneratedContent
    let codingPath: [CodingKey]

    func decodeNil() -> Bool { content.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, content, codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(type, content, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type, content, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type, content, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type, content, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isScalar(type) { return try scalar(type, content, codingPath) }
        return try ContentDecoder.decode(type, from: content, codingPath: codingPath)
    }
}
