import FMEvaluate

/// Suite nodes as expectation kinds' shorthands read and build them; built nodes keep this node's location.
extension YAMLNode: ExpectationNode {
    /// Whether the node is a scalar (null included).
    public var isScalar: Bool { scalar != nil }

    /// Whether the node is a sequence.
    public var isSequence: Bool { sequence != nil }

    /// The text of a string scalar.
    public var stringValue: String? {
        guard case .string(let text)? = scalar?.value else { return nil }
        return text
    }

    /// The keys of a mapping in order.
    public var mappingKeys: [String]? { mapping?.map(\.name) }

    /// `{key: self}`.
    public func wrapped(in key: String) -> YAMLNode {
        makeMapping([(key, self)])
    }

    /// `[self]`.
    public func listed() -> YAMLNode {
        YAMLNode(.sequence([self]), at: location)
    }

    /// A mapping of these entries with plain keys located here.
    public func makeMapping(_ entries: [(key: String, value: YAMLNode)]) -> YAMLNode {
        let pairs = entries.map { Entry(key: YAMLNode(.scalar(YAMLScalar(text: $0.key, style: .plain)), at: location), value: $0.value) }
        return YAMLNode(.mapping(pairs), at: location)
    }

    /// This mapping with the first value under `key` replaced.
    public func replacing(_ key: String, with value: YAMLNode) -> YAMLNode {
        guard var entries = mapping, let index = entries.firstIndex(where: { $0.name == key }) else { return self }
        entries[index].value = value
        return YAMLNode(.mapping(entries), at: location)
    }
}
