import FMCore

/// One check a case makes on each attempt; a case holds a list of them and an attempt passes when all hold.
///
/// Codable as a one-key object naming the kind, `{"contains": {...}}`, the shape suites are written in.
/// The kinds are the types of the decoder's `ExpectationRegistry` (`builtIn` unless the decoder's
/// `userInfo` carries another under `ExpectationRegistry.userInfoKey`).
public struct Expectation: Codable, Equatable, Sendable {
    /// The kind's payload.
    public let payload: any ExpectationKind

    /// Wraps a payload.
    public init(_ payload: some ExpectationKind) {
        self.payload = payload
    }

    /// The kind's keyword as written in suites (a synonym reads as its kind's keyword).
    public var kind: String { type(of: payload).keyword }

    /// The payload when it is of kind `type`.
    public func payload<Kind: ExpectationKind>(as type: Kind.Type) -> Kind? {
        payload as? Kind
    }

    /// Reasons this expectation cannot work as written, for suite validation to report with a location.
    public var problems: [String] { payload.problems }

    /// Whether this expectation scores an attempt that ends in the error `caseName` of class `failureClass`.
    public func covers(errorNamed caseName: String, class failureClass: FailureClass) -> Bool {
        payload.covers(errorNamed: caseName, class: failureClass)
    }

    /// Whether it names a retryable infrastructure error, so retries would hide what it expects.
    public var namesRetryableError: Bool { payload.namesRetryableError }

    /// The judge-engine names this expectation needs, so the runner can set them up before running.
    public var judgeEngines: [JudgeEngineChoice] { payload.judgeEngines }

    /// Whether it checks violations of the schema the attempt requested.
    public var needsRequestedSchema: Bool { payload.needsRequestedSchema }

    /// The evaluator that checks this expectation.
    public func evaluator(in environment: EvaluationEnvironment = EvaluationEnvironment()) -> any Evaluator {
        payload.evaluator(in: environment)
    }

    /// Whether both are of one kind with equal payloads.
    public static func == (lhs: Expectation, rhs: Expectation) -> Bool {
        lhs.payload.isEqual(to: rhs.payload)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a one-key object `{KIND: PAYLOAD}`, the kind looked up in the decoder's registry.
    public init(from decoder: Decoder) throws {
        let registry = ExpectationRegistry.of(decoder)
        let known = registry.keywords.joined(separator: ", ")
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            let found = container.allKeys.map(\.stringValue).sorted().joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "an expectation is one key naming its kind (found: \(found.isEmpty ? "none" : found)); one of \(known)"))
        }
        guard let kind = registry.kind(named: key.stringValue) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown expectation '\(key.stringValue)'; use one of \(known)")
        }
        self = try kind.decodeExpectation(from: container, forKey: key)
    }

    /// Encodes `{KIND: PAYLOAD}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try payload.encode(into: &container, forKey: Key(kind))
    }
}
