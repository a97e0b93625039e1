import FMCore

/// Decodes `Decodable` values straight from a located node tree.
///
/// Type errors carry the offending node's location; keys a type never asked for are reported as
/// unknown with a "did you mean" suggestion drawn from the keys it did ask for. `GeneratedContent`
/// and `GenerationSchema` are built directly from nodes, keeping key order.
public struct NodeDecoding {
    /// Decodes `type` from `node` (the decoder carries `userInfo`, e.g. an `ExpectationRegistry`); every
    /// problem found is returned as a located diagnostic.
    public static func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode,
                                            userInfo: [CodingUserInfoKey: Any] = [:]) -> Result<T, DiagnosticList> {
        let context = NodeDecodingContext(userInfo: userInfo)
        do {
            let value = try NodeDecoderImpl(node: node, codingPath: [], context: context).decodeValue(type)
            let unknown = context.unknownKeys(in: node)
            return unknown.isEmpty ? .success(value) : .failure(DiagnosticList(unknown))
        } catch let diagnostic as Diagnostic {
            return .failure(DiagnosticList([diagnostic] + context.unknownKeys(in: node)))
        } catch let error as DecodingError {
            return .failure(DiagnosticList([context.diagnostic(for: error, root: node)] + context.unknownKeys(in: node)))
        } catch {
            return .failure(DiagnosticList([Diagnostic(node.location, "\(error)")]))
        }
    }

    /// Converts a node to JSON content (mapping key order kept; plain scalars typed by the core schema).
    public static func content(of node: YAMLNode) throws -> GeneratedContent {
        switch node.content {
        case .sequence(let items): return GeneratedContent(try items.map(content(of:)))
        case .mapping(let entries):
            return GeneratedContent(properties: try entries.map { ($0.name, try content(of: $0.value)) })
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return .null
            case .bool(let value): return GeneratedContent(value)
            case .int(let value): return GeneratedContent(value)
            case .bigInt(let value): return GeneratedContent(value)
            case .float(let value):
                guard value.isFinite else {
                    throw Diagnostic(node.location, "\(scalar.text) is not a JSON number; use a finite number or quote it")
                }
                return GeneratedContent(decimal: value)
            case .string(let value): return GeneratedContent(value)
            }
        }
    }
}

/// Records which keys each decoded mapping was asked for, by the mapping's coding path.
final class NodeDecodingContext {
    /// What every decoder of this tree carries in `userInfo`.
    let userInfo: [CodingUserInfoKey: Any]
    /// Queried key names per mapping, keyed by the mapping's coding path ("/cases/0/expect").
    var queried: [String: Set<String>] = [:]

    init(userInfo: [CodingUserInfoKey: Any]) { self.userInfo = userInfo }

    static func pathKey(_ path: [CodingKey]) -> String {
        path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
    }

    func noteKeyed(_ path: [CodingKey]) {
        let key = NodeDecodingContext.pathKey(path)
        if queried[key] == nil { queried[key] = [] }
    }

    func note(_ name: String, in path: [CodingKey]) {
        queried[NodeDecodingContext.pathKey(path), default: []].insert(name)
    }

    /// Unknown-key diagnostics for every mapping opened as a keyed container under `node`.
    func unknownKeys(in node: YAMLNode) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func visit(_ node: YAMLNode, _ path: String) {
            switch node.content {
            case .scalar: return
            case .sequence(let items):
                for (index, item) in items.enumerated() { visit(item, path + "/\(index)") }
            case .mapping(let entries):
                if let known = queried[path] {
                    for entry in entries where !known.contains(entry.name) {
                        found.append(Diagnostic(entry.key.location, unknownKeyMessage(entry.name, known: Array(known))))
                    }
                }
                for entry in entries { visit(entry.value, path + "/" + entry.name) }
            }
        }
        visit(node, "")
        return found
    }

    /// A located diagnostic for a `DecodingError` thrown by a type's own `init(from:)`.
    func diagnostic(for error: DecodingError, root: YAMLNode) -> Diagnostic {
        let path: [CodingKey]
        let message: String
        switch error {
        case .dataCorrupted(let context):
            path = context.codingPath
            message = context.debugDescription
        case .keyNotFound(let key, let context):
            path = context.codingPath
            message = "missing required key '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            path = context.codingPath
            message = context.debugDescription
        @unknown default:
            return Diagnostic(root.location, "\(error)")
        }
        var node = root
        for key in path {
            if let index = key.intValue, let items = node.sequence, items.indices.contains(index) {
                node = items[index]
            } else if let entry = node.mapping?.first(where: { $0.name == key.stringValue }) {
                node = entry.value
            }
        }
        return Diagnostic(node.location, message)
    }
}

/// "unknown key 'x'; did you mean 'y'?" or the list of valid keys.
func unknownKeyMessage(_ key: String, known: [String]) -> String {
    let sorted = known.sorted()
    if let guess = Suggestion.closest(to: key, in: sorted) { return "unknown key '\(key)'; did you mean '\(guess)'?" }
    return "unknown key '\(key)'; valid keys here: \(sorted.joined(separator: ", "))"
}

/// A `Decoder` over one node.
struct NodeDecoderImpl: Decoder {
    let node: YAMLNode
    let codingPath: [CodingKey]
    let context: NodeDecodingContext
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func fail(_ expected: String) -> Diagnostic {
        Diagnostic(node.location, "expected \(expected), found \(node.kindName)\(node.scalar.map { " '\($0.text)'" } ?? "")")
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == GeneratedContent.self { return try NodeDecoding.content(of: node) as! T }
        if type == GenerationSchema.self {
            let content = try NodeDecoding.content(of: node)
            do { return try GenerationSchema(content: content) as! T } catch {
                throw SuiteReader.schemaDiagnostic(error, in: node, "schema").diagnostic
            }
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let entries = node.mapping else { throw fail("a mapping") }
        context.noteKeyed(codingPath)
        return KeyedDecodingContainer(NodeKeyedContainer<Key>(decoder: self, entries: entries))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard let items = node.sequence else { throw fail("a sequence") }
        return NodeUnkeyedContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        NodeSingleValueContainer(decoder: self)
    }

    func child(_ node: YAMLNode, key: CodingKey) -> NodeDecoderImpl {
        NodeDecoderImpl(node: node, codingPath: codingPath + [key], context: context)
    }
}

/// An integer coding key for sequence positions.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoderImpl
    let entries: [YAMLNode.Entry]
    var codingPath: [CodingKey] { decoder.codingPath }
    var allKeys: [Key] { entries.compactMap { Key(stringValue: $0.name) } }

    func entry(_ key: Key) -> YAMLNode.Entry? {
        decoder.context.note(key.stringValue, in: decoder.codingPath)
        return entries.first { $0.name == key.stringValue }
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { entry(key)?.value.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let found = entry(key) else {
            throw Diagnostic(decoder.node.location, "missing required key '\(key.stringValue)'")
        }
        return try decoder.child(found.value, key: key).decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = entry(key), !found.value.isNull else { return nil }
        return try decoder.child(found.value, key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard let found = entry(key) else { throw Diagnostic(decoder.node.location, "missing required key '\(key.stringValue)'") }
        return try decoder.child(found.value, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        guard let found = entry(key) else { throw Diagnostic(decoder.node.location, "missing required key '\(key.stringValue)'") }
        return try decoder.child(found.value, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder {
        guard let found = entry(key) else { throw Diagnostic(decoder.node.location, "missing required key '\(key.stringValue)'") }
        return decoder.child(found.value, key: key)
    }
}

struct NodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoderImpl
    let items: [YAMLNode]
    var currentIndex = 0
    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> NodeDecoderImpl {
        guard !isAtEnd else { throw Diagnostic(decoder.node.location, "the sequence has too few items") }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

struct NodeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoderImpl
    var codingPath: [CodingKey] { decoder.codingPath }
    var value: ScalarValue? { decoder.node.scalar?.value }

    func decodeNil() -> Bool { decoder.node.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw decoder.fail("true or false") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard let scalar = decoder.node.scalar, case .string(let text) = scalar.value else {
            throw decoder.fail("a string (quote it if it looks like a number, boolean or null)")
        }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .int(let number): return Double(number)
        case .float(let number) where number.isFinite: return number
        case .bigInt: throw decoder.fail("a number within the 64-bit range (this setting is read as a float)")
        default: throw decoder.fail("a number")
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func decode(_ type: Int.Type) throws -> Int {
        switch value {
        case .int(let number): return number
        case .float(let number) where number.rounded() == number && abs(number) < 9e15: return Int(number)
        case .bigInt: throw decoder.fail("an integer within the 64-bit range")
        default: throw decoder.fail("an integer")
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let number = try decode(Int.self)
        guard let value = T(exactly: number) else { throw decoder.fail("an integer in range for \(T.self)") }
        return value
    }

    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
