/// How the model picks tokens and how long it may answer (Apple's `GenerationOptions`).
///
/// JSON form (every field optional; `{}` means the defaults, as on Apple's prompt entries):
/// `{"sampling": "greedy" | {"topK": K, "seed": S} | {"probabilityThreshold": P, "seed": S},`
/// (reading also takes Foundation Models' case names, `randomTopK` and `randomProbabilityThreshold`)
/// `"temperature": T, "maximumResponseTokens": N, "toolCallingMode": "allowed" | "required" | "disallowed"}`.
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

    /// Creates options; every field defaults to "unspecified".
    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
                toolCallingMode: ToolCallingMode? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCallingMode = toolCallingMode
    }

    /// Reads options from JSON; errors name the JSON path under `path`.
    public init(content: GeneratedContent, at path: String = "") throws {
        let reader = try ObjectReader(content, at: path, what: "generation options")
        try reader.rejectUnknownKeys(["sampling", "temperature", "maximumResponseTokens", "toolCallingMode"], in: "generation options")
        if let sampling = reader.optional("sampling") {
            self.sampling = try Self.samplingMode(sampling, at: reader.path("sampling"))
        }
        temperature = try reader.optionalNumber("temperature", "the temperature")
        if let temperature, temperature < 0 {
            throw JSONFormatError(path: reader.path("temperature"), message: "temperature must be ≥ 0, found \(GeneratedContent.format(number: temperature))")
        }
        maximumResponseTokens = try reader.optionalCount("maximumResponseTokens", "maximumResponseTokens")
        if let mode = try reader.optionalString("toolCallingMode", "the tool-calling mode") {
            guard let value = ToolCallingMode(rawValue: mode) else {
                throw JSONFormatError(path: reader.path("toolCallingMode"), message: "unknown toolCallingMode \"\(mode)\"; use allowed, required or disallowed")
            }
            toolCallingMode = value
        }
    }

    private static func samplingMode(_ content: GeneratedContent, at path: String) throws -> SamplingMode {
        if let word = content.stringValue {
            guard word == "greedy" else {
                throw JSONFormatError(path: path, message: "unknown sampling \"\(word)\"; use \"greedy\", {\"randomTopK\": K} or {\"randomProbabilityThreshold\": P}")
            }
            return .greedy
        }
        let reader = try ObjectReader(content, at: path, what: "a sampling mode (\"greedy\", {\"randomTopK\": K} or {\"randomProbabilityThreshold\": P})")
        try reader.rejectUnknownKeys(["randomTopK", "randomProbabilityThreshold", "topK", "probabilityThreshold", "seed"], in: "a sampling mode")
        var seed: UInt64?
        if let value = reader.optional("seed") {
            guard let number = value.numberValue, number >= 0, number == number.rounded(), number < 1.8e19 else {
                throw JSONFormatError(path: reader.path("seed"), message: "expected the seed as a non-negative integer, found \(value.jsonString)")
            }
            seed = UInt64(number)
        }
        let (topKey, thresholdKey) = try (spelling(reader, "randomTopK", "topK"), spelling(reader, "randomProbabilityThreshold", "probabilityThreshold"))
        let top = try reader.optionalCount(topKey, topKey)
        let threshold = try reader.optionalNumber(thresholdKey, thresholdKey)
        switch (top, threshold) {
        case (let top?, nil):
            guard top >= 1 else { throw JSONFormatError(path: reader.path(topKey), message: "\(topKey) must be at least 1") }
            return .topK(top, seed: seed)
        case (nil, let threshold?):
            guard threshold > 0, threshold <= 1 else {
                throw JSONFormatError(path: reader.path(thresholdKey), message: "\(thresholdKey) must be in (0, 1], found \(GeneratedContent.format(number: threshold))")
            }
            return .nucleus(probabilityThreshold: threshold, seed: seed)
        default:
            throw JSONFormatError(path: path, message: "a sampling mode needs exactly one of randomTopK or randomProbabilityThreshold")
        }
    }

    /// Which of a setting's two spellings `reader` holds (Foundation Models' case name, or the older
    /// short one); both at once is an error.
    private static func spelling(_ reader: ObjectReader, _ name: String, _ older: String) throws -> String {
        guard reader.optional(older) != nil else { return name }
        guard reader.optional(name) == nil else {
            throw JSONFormatError(path: reader.path(older), message: "\(older) is the older spelling of \(name); give one of them")
        }
        return older
    }

    /// The options' JSON value; unspecified fields are left out.
    public var content: GeneratedContent {
        var members: [(String, GeneratedContent)] = []
        switch sampling {
        case .greedy: members.append(("sampling", "greedy"))
        case .topK(let top, let seed):
            members.append(("sampling", GeneratedContent(properties: [("topK", GeneratedContent(top))] + Self.seedMember(seed))))
        case .nucleus(let threshold, let seed):
            members.append(("sampling", GeneratedContent(properties: [("probabilityThreshold", GeneratedContent(threshold))] + Self.seedMember(seed))))
        case nil: break
        }
        if let temperature { members.append(("temperature", GeneratedContent(temperature))) }
        if let maximumResponseTokens { members.append(("maximumResponseTokens", GeneratedContent(maximumResponseTokens))) }
        if let toolCallingMode { members.append(("toolCallingMode", GeneratedContent(toolCallingMode.rawValue))) }
        return GeneratedContent(properties: members)
    }

    private static func seedMember(_ seed: UInt64?) -> [(String, GeneratedContent)] {
        seed.map { [("seed", GeneratedContent(Double($0)))] } ?? []
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
