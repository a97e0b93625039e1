/// How the model picks tokens and how long it may answer (Apple's `GenerationOptions`).
///
/// JSON forms (every field optional; `{}` means the defaults, as on Apple's prompt entries) are described
/// in `GenerationOptions+JSON.swift`: fmeval's nested `sampling` and Foundation Models 27's flat members.
public struct GenerationOptions: Hashable, Sendable {
    /// A token sampling strategy.
    public enum SamplingMode: Hashable, Sendable {
        /// Always the most likely token: deterministic, the harness default.
        case greedy
        /// Sample among the `top` most likely tokens, with an optional seed.
        case topK(Int, seed: UInt64?)
        /// Sample among the smallest set of tokens whose probabilities sum to `probabilityThreshold`, with an optional seed.
        case nucleus(probabilityThreshold: Double, seed: UInt64?)

        /// Sampling among the `top` most likely tokens (Apple's `random(top:seed:)`).
        public static func random(top: Int, seed: UInt64? = nil) -> SamplingMode { .topK(top, seed: seed) }
        /// Nucleus sampling (Apple's `random(probabilityThreshold:seed:)`).
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            .nucleus(probabilityThreshold: probabilityThreshold, seed: seed)
        }
    }

    /// Whether the model may, must, or must not call tools.
    public enum ToolCallingMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// The model decides.
        case allowed
        /// The model must call at least one tool.
        case required
        /// The model may not call tools.
        case disallowed
    }

    /// The sampling strategy; nil leaves it to the engine (fmeval engines use greedy).
    public var sampling: SamplingMode?
    /// Temperature for random sampling; nil for the default.
    public var temperature: Double?
    /// The most tokens the response may have; nil for no limit beyond the context.
    public var maximumResponseTokens: Int?
    /// Whether tools may be called; nil means `allowed`.
    public var toolCallingMode: ToolCallingMode?
    /// How the sampling mode is written (`GenerationOptions+JSON.swift`); nil writes the transcript dialect's form.
    @WrittenForm public var form: Form?
    /// Members a transcript's options hold that this reader does not model, written back unchanged.
    public var additionalFields: [String: GeneratedContent] = [:]

    /// Creates options; every field defaults to "unspecified".
    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
                toolCallingMode: ToolCallingMode? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = toolCallingMode
    }
}

extension GenerationOptions: Codable {
    /// Decodes the JSON form described on the type.
    public init(from decoder: Decoder) throws {
        let content = try GeneratedContent(from: decoder)
        do {
            try self.init(content: content)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid generation options: \(error)", underlyingError: error))
        }
    }

    /// Encodes the JSON form described on the type.
    public func encode(to encoder: Encoder) throws {
        try content.encode(to: encoder)
    }
}
