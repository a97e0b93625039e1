import Foundation

/// A value one engine reads from a case (the scripted engine's script), as that engine decoded it.
public protocol EngineCaseValue: Encodable, Sendable {}

/// What a case-data check may need to know about the case around the data.
public struct EngineCaseFacts: Sendable {
    /// The case's id in its suite.
    public var caseID: String
    /// How many turns the case has (1 for a single prompt).
    public var turnCount: Int
    /// The names of the tools the suite defines.
    public var toolNames: Set<String>

    /// Creates the facts.
    public init(caseID: String, turnCount: Int, toolNames: Set<String>) {
        self.caseID = caseID
        self.turnCount = turnCount
        self.toolNames = toolNames
    }
}

/// How an engine's per-case data is written and read: the key it takes in a case (and in a judge on that
/// engine), how the engine decodes it and what it checks. An engine declares one in its descriptor; the
/// suite reader reads every declared key without knowing any engine.
public struct EngineCaseDataKind: Sendable {
    /// Decodes the value from the decoder positioned at the key's value (errors keep their locations).
    public typealias Decode = @Sendable (Decoder) throws -> any EngineCaseValue
    /// The problems of a decoded value in its case (empty when it can be played).
    public typealias Check = @Sendable (any EngineCaseValue, EngineCaseFacts) -> [String]

    /// The key in a case (`script`).
    public var key: String
    /// What the data is, for messages ("the responses to play back").
    public var summary: String
    /// The decoder.
    public var decode: Decode
    /// The check.
    public var check: Check
    /// The data's JSON Schema as `$defs` members, one named after `key` (the value's schema), for the suite
    /// schema (`fmeval schema suite`); empty: any value.
    public var schemaDefinitions: String

    /// Creates a kind.
    public init(key: String, summary: String, decode: @escaping Decode, check: @escaping Check = { _, _ in [] },
                schemaDefinitions: String = "") {
        self.key = key
        self.schemaDefinitions = schemaDefinitions
        self.summary = summary
        self.decode = decode
        self.check = check
    }

    /// Where a decoder finds the kinds it may read (`[EngineCaseDataKind]`), e.g. inside a judge.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "fmeval.engineCaseDataKinds")!
}

/// The engine data a case (or a judge) carries, by key. Two are equal when their values encode to the
/// same JSON; each value encodes under its key, as if it were a property of the value around it.
public struct EngineCaseData: Hashable, Sendable {
    /// The values by key.
    public private(set) var values: [String: any EngineCaseValue] = [:]
    private var canonical: [String: String] = [:]

    /// No data.
    public init() {}

    /// The value under `key`, if any.
    public subscript(key: String) -> (any EngineCaseValue)? { values[key] }

    /// True when the case carries no engine data.
    public var isEmpty: Bool { values.isEmpty }

    /// The keys present, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// Sets the value under `key`.
    public mutating func set(_ value: any EngineCaseValue, forKey key: String) {
        values[key] = value
        canonical[key] = Self.json(value)
    }

    /// Encodes each value under its key into `encoder`'s keyed container (merged with the caller's keys).
    public func encodeEntries(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: DataKey.self)
        for key in keys { try container.encode(values[key]!, forKey: DataKey(key)) }
    }

    /// Decodes every key of `kinds` present in `decoder`'s keyed container.
    public static func decode(_ kinds: [EngineCaseDataKind], from decoder: Decoder) throws -> EngineCaseData {
        var data = EngineCaseData()
        let container = try decoder.container(keyedBy: DataKey.self)
        for kind in kinds where container.contains(DataKey(kind.key)) {
            data.set(try kind.decode(container.superDecoder(forKey: DataKey(kind.key))), forKey: kind.key)
        }
        return data
    }

    /// The kinds a decoder carries under `EngineCaseDataKind.userInfoKey` (none when it carries none).
    public static func kinds(in decoder: Decoder) -> [EngineCaseDataKind] {
        decoder.userInfo[EngineCaseDataKind.userInfoKey] as? [EngineCaseDataKind] ?? []
    }

    /// Equal when every value encodes to the same JSON.
    public static func == (lhs: EngineCaseData, rhs: EngineCaseData) -> Bool { lhs.canonical == rhs.canonical }

    /// Hashes the values' JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    /// The value's JSON with sorted keys (the identity `==`, `hash` and reuse keys rest on).
    public static func json(_ value: any EngineCaseValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Box(value: value)) else { return "unencodable" }
        return String(decoding: data, as: UTF8.self)
    }

    private struct Box: Encodable {
        let value: any EngineCaseValue
        func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
    }

    private struct DataKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
