/// Encodes any `Encodable` into a `GeneratedContent` JSON value, keys in encoding order (a dictionary's sorted).
///
/// Much faster than `JSONEncoder` for results: values that already are JSON (`GeneratedContent`,
/// transcripts, schemas, tool calls, violations) are taken whole instead of being re-encoded node
/// by node. Text comes from `GeneratedContent.jsonString`, so output matches what `JSONDecoder` reads.
public enum ContentEncoder {
    /// The JSON value of `value`.
    public static func encode<Value: Encodable>(_ value: Value) throws -> GeneratedContent {
        if let direct = directContent(of: value) { return direct }
        let slot = Slot()
        try value.encode(to: SlotEncoder(slot: slot, codingPath: []))
        return slot.content
    }

    /// The compact JSON text of `value`, written straight from the encoded tree (no intermediate
    /// `GeneratedContent` for the parts that are not already JSON values).
    public static func jsonText<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try jsonBytes(value), as: UTF8.self)
    }

    /// `jsonText(value)` as UTF-8 bytes, written into one growing buffer (no `String` in between).
    public static func jsonBytes<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        if let direct = directContent(of: value) {
            direct.writeJSON(to: &bytes)
            return bytes
        }
        let slot = Slot()
        try value.encode(to: SlotEncoder(slot: slot, codingPath: []))
        slot.write(to: &bytes)
        return bytes
    }

    /// The JSON value of values that carry their own JSON form.
    static func directContent(of value: Any) -> GeneratedContent? {
        switch value {
        case let content as GeneratedContent: return content
        case let transcript as Transcript: return transcript.content
        case let schema as GenerationSchema: return schema.content
        case let call as ToolCall: return call.content
        case let violation as Violation: return violation.content
        default: return nil
        }
    }
}

/// One value being built; members and elements grow in place.
final class Slot {
    enum State {
        case empty
        case value(GeneratedContent)
        case object
        case array
    }

    var state = State.empty
    private var members: [(String, Slot)] = []
    private var elements: [Slot] = []

    var content: GeneratedContent {
        switch state {
        case .empty: return .null
        case .value(let value): return value
        case .object: return GeneratedContent(properties: members.map { ($0.0, $0.1.content) })
        case .array: return GeneratedContent(elements.map(\.content))
        }
    }

    var count: Int { elements.count }

    /// Appends this value's compact JSON text, as UTF-8.
    func write(to bytes: inout [UInt8]) {
        switch state {
        case .empty: GeneratedContent.append("null", to: &bytes)
        case .value(let value): value.writeJSON(to: &bytes)
        case .object:
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                GeneratedContent.writeQuoted(member.0, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.1.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array:
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    func becomeObject() {
        if case .object = state { return }
        state = .object
        members = []
    }

    func becomeArray() {
        if case .array = state { return }
        state = .array
        elements = []
    }

    func member(_ key: String) -> Slot {
        becomeObject()
        let child = Slot()
        members.append((key, child))
        return child
    }

    func element() -> Slot {
        becomeArray()
        let child = Slot()
        elements.append(child)
        return child
    }

    /// Encodes `value` here. A string-keyed dictionary is written with its keys sorted: Swift would
    /// encode it in hash order, which changes from process to process, so equal results would differ.
    func set<Value: Encodable>(_ value: Value, codingPath: [CodingKey]) throws {
        if let direct = ContentEncoder.directContent(of: value) {
            state = .value(direct)
        } else if let integer = value as? any FixedWidthInteger {
            // Other integer widths than Int reach here through the containers' generic `encode`; encoding
            // them with `value.encode(to:)` would come back to it forever.
            guard let exact = Int(exactly: integer) else {
                throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath,
                    debugDescription: "\(integer) is outside the 64-bit signed integers results hold"))
            }
            state = .value(GeneratedContent(exact))
        } else if let float = value as? Float {
            state = .value(number(Double(float)))
        } else if let dictionary = value as? [String: any Encodable] {
            becomeObject()
            for key in dictionary.keys.sorted() {
                try member(key).set(dictionary[key]!, codingPath: codingPath + [AnyCodingKey(stringValue: key)])
            }
        } else {
            try value.encode(to: SlotEncoder(slot: self, codingPath: codingPath))
        }
    }
}

struct SlotEncoder: Encoder {
    let slot: Slot
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.becomeObject()
        return KeyedEncodingContainer(KeyedSlot<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        slot.becomeArray()
        return UnkeyedSlot(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleSlot(slot: slot, codingPath: codingPath) }
}

struct KeyedSlot<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [CodingKey]

    mutating func encodeNil(forKey key: Key) throws { slot.member(key.stringValue).state = .value(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { slot.member(key.stringValue).state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { slot.member(key.stringValue).state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { slot.member(key.stringValue).state = .value(number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { slot.member(key.stringValue).state = .value(number(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { slot.member(key.stringValue).state = .value(GeneratedContent(value)) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try slot.member(key.stringValue).set(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.member(key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(KeyedSlot<NestedKey>(slot: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let child = slot.member(key.stringValue)
        child.becomeArray()
        return UnkeyedSlot(slot: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder { SlotEncoder(slot: slot.member("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder { SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]) }
}

struct UnkeyedSlot: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [CodingKey]
    var count: Int { slot.count }

    mutating func encodeNil() throws { slot.element().state = .value(.null) }
    mutating func encode(_ value: Bool) throws { slot.element().state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: String) throws { slot.element().state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: Double) throws { slot.element().state = .value(number(value)) }
    mutating func encode(_ value: Int) throws { slot.element().state = .value(GeneratedContent(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try slot.element().set(value, codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.element()
        child.becomeObject()
        return KeyedEncodingContainer(KeyedSlot<NestedKey>(slot: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let child = slot.element()
        child.becomeArray()
        return UnkeyedSlot(slot: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> Encoder { SlotEncoder(slot: slot.element(), codingPath: codingPath) }
}

struct SingleSlot: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { slot.state = .value(.null) }
    mutating func encode(_ value: Bool) throws { slot.state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: String) throws { slot.state = .value(GeneratedContent(value)) }
    mutating func encode(_ value: Double) throws { slot.state = .value(number(value)) }
    mutating func encode(_ value: Int) throws { slot.state = .value(GeneratedContent(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try slot.set(value, codingPath: codingPath) }
}

/// A finite number, or a string for NaN and infinities (as JSONEncoder refuses them, results never hold them).
private func number(_ value: Double) -> GeneratedContent {
    value.isFinite ? GeneratedContent(value) : GeneratedContent(String(value))
}
