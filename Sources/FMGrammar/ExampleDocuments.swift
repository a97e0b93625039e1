import FMCore

/// Pseudo-random valid instances of a `GenerationSchema` (same seed, same documents): optional
/// properties sometimes present, element counts and numbers within bounds, strings drawn from a
/// small set that exercises escapes and non-ASCII text. Used by tests, the mask benchmark and docs.
///
/// Strings under a `pattern` are random walks of the pattern's grammar (printable ASCII preferred).
public struct ExampleDocuments {
    /// The schema whose instances are made.
    public let schema: GenerationSchema
    private var random: SplitMix64
    /// Sample string values.
    public static let sampleTexts = ["Mittens", "Sir \"Prickles\"", "naps\nand snacks", "café ☀️", "", "back\\slash", "tab\there"]

    /// A generator for `schema` seeded with `seed`.
    public init(schema: GenerationSchema, seed: UInt64) {
        self.schema = schema
        random = SplitMix64(seed: seed)
    }

    /// A random number.
    private mutating func nextRandom() -> UInt64 { random.next() }

    private mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(nextRandom() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    private mutating func coin() -> Bool { nextRandom() & 1 == 0 }

    /// The next instance of the schema's root.
    public mutating func next() -> GeneratedContent { instance(of: schema.root, depth: 0) }

    /// One instance of `node`; deeper than 3 levels arrays take their minimum count, ending recursion.
    public mutating func instance(of node: GenerationSchema.Node, depth: Int) -> GeneratedContent {
        switch node.kind {
        case .object(let object):
            var members: [(String, GeneratedContent)] = []
            for property in object.properties where property.isRequired || coin() {
                members.append((property.name, instance(of: property.node, depth: depth + 1)))
            }
            return GeneratedContent(properties: members)
        case .array(let array):
            let low = array.minItems ?? 0
            let high = max(low, min(array.maxItems ?? (low + 3), depth > 3 ? low : low + 3))
            return GeneratedContent((0..<integer(in: low...high)).map { _ in instance(of: array.items, depth: depth + 1) })
        case .reference(let name):
            guard let target = schema.definition(named: name) else { return .null }
            return instance(of: target, depth: depth + 1)
        case .anyOf(let choices):
            guard !choices.isEmpty else { return .null }
            return instance(of: choices[integer(in: 0...(choices.count - 1))], depth: depth)
        case .string(let string):
            if let choices = string.choices, !choices.isEmpty {
                return GeneratedContent(choices[integer(in: 0...(choices.count - 1))])
            }
            if string.pattern != nil { return patternInstance(of: node) ?? GeneratedContent(Self.sampleTexts[0]) }
            return GeneratedContent(Self.sampleTexts[integer(in: 0...(Self.sampleTexts.count - 1))])
        case .integer(let bounds):
            let low = Int((bounds.minimum ?? -50).rounded(.up)), high = Int((bounds.maximum ?? 5000).rounded(.down))
            return GeneratedContent(integer(in: low...max(low, high)))
        case .number(let bounds):
            let low = Int((bounds.minimum ?? -50).rounded(.up)), high = Int((bounds.maximum ?? 5000).rounded(.down))
            let whole = integer(in: low...max(low, high))
            let hundredths = whole < max(low, high) ? integer(in: 0...99) : 0
            return GeneratedContent(Double(whole * 100 + hundredths) / 100)
        case .boolean:
            return GeneratedContent(coin())
        case .null:
            return .null
        }
    }

    /// A random string matching a `pattern` string node: a walk over its grammar's bytes that stops
    /// at a complete string with even odds (always after 40 bytes when it can); nil if it gets stuck.
    private mutating func patternInstance(of node: GenerationSchema.Node) -> GeneratedContent? {
        guard let schema = try? GenerationSchema(root: node), let grammar = try? Grammar.json(schema: schema) else { return nil }
        var simulator = StackSimulator(grammar: grammar)
        var configurations = simulator.initial()
        var bytes: [UInt8] = []
        while bytes.count < 400 {
            if simulator.completed && (configurations.isEmpty || coin() || bytes.count > 40) { break }
            let candidates = (0..<256).filter { byte in
                configurations.contains { grammar.target(of: Int($0.state), byte: byte) >= 0 }
            }
            let printable = candidates.filter { (0x20...0x7E).contains($0) }
            let pool = printable.isEmpty ? candidates : printable
            guard !pool.isEmpty else { return nil }
            let byte = UInt8(pool[integer(in: 0...(pool.count - 1))])
            simulator.advance(&configurations, byte: byte)
            bytes.append(byte)
        }
        return try? GeneratedContent(json: String(decoding: bytes, as: UTF8.self))
    }
}
