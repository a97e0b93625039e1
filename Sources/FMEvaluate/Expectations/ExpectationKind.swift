import FMCore

/// One kind of expectation, defined in one file: its keyword, payload (this type, decoded with located
/// errors by the suite loader), shorthand, JSON Schema fragment, validation, evaluator and stable encoding
/// (its `Codable` shape, which the case-definition hash reads). A kind takes effect in the registry it is
/// in: `ExpectationRegistry.builtIn` for fmeval's own, `registering(_:)` for a library user's.
public protocol ExpectationKind: Codable, Equatable, Sendable {
    /// The keyword naming the kind in suites (`contains`); its payload is encoded under this key.
    static var keyword: String { get }
    /// Further keywords that read into this kind (`schema` for `constraints`); none by default.
    static var synonyms: [String] { get }
    /// The kind's part of `fmeval schema suite`.
    static var jsonSchema: ExpectationSchemaFragment { get }
    /// Rewrites the suite shorthands of a payload written under `keyword` into the shape `init(from:)`
    /// reads; nil once `reader` has reported why it cannot. By default the payload is read as written.
    static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node?
    /// Reasons this payload cannot work as written, for suite validation to report with a location.
    var problems: [String] { get }
    /// Whether an attempt that ends in the error `caseName` of class `failureClass` is scored by this payload
    /// (an expected error) rather than failing as a response error or, for infrastructure, being an `error`.
    func covers(errorNamed caseName: String, class failureClass: FailureClass) -> Bool
    /// Whether it names a retryable infrastructure error, which a retry would hide (then the case is not retried).
    var namesRetryableError: Bool { get }
    /// The judge engines this payload needs (a nil name: the run's engine), checked before the run starts.
    var judgeEngines: [JudgeEngineChoice] { get }
    /// Whether it checks the output against the schema the attempt requested, so the case must request one.
    var needsRequestedSchema: Bool { get }
    /// The evaluator that checks this payload.
    func evaluator(in environment: EvaluationEnvironment) -> any Evaluator
}

extension ExpectationKind {
    /// No synonyms.
    public static var synonyms: [String] { [] }
    /// The payload is read as written.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? { node }
    /// No problems.
    public var problems: [String] { [] }
    /// No error expected.
    public func covers(errorNamed caseName: String, class failureClass: FailureClass) -> Bool { false }
    /// No error named.
    public var namesRetryableError: Bool { false }
    /// No judge engine.
    public var judgeEngines: [JudgeEngineChoice] { [] }
    /// No requested schema needed.
    public var needsRequestedSchema: Bool { false }

    static func decodeExpectation<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Expectation {
        Expectation(try container.decode(Self.self, forKey: key))
    }

    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(self, forKey: key)
    }

    func isEqual(to other: any ExpectationKind) -> Bool {
        (other as? Self) == self
    }
}

/// A kind's part of the suite JSON Schema: members written without indentation, separated by `,\n`.
public struct ExpectationSchemaFragment: Sendable {
    /// Members of `$defs/expectations/properties`, one per keyword (`"contains": {…}`).
    public var properties: String
    /// Further members of `$defs` the properties refer to (`"equalsCheck": {…}`); empty for none.
    public var definitions: String

    /// Creates a fragment.
    public init(properties: String, definitions: String = "") {
        self.properties = properties
        self.definitions = definitions
    }
}
