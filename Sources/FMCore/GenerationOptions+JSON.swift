/// The JSON forms of `GenerationOptions`.
///
/// Nested (fmeval's suites and Foundation Models 26-era files):
/// `{"sampling": "greedy" | {"topK": K, "seed": S} | {"probabilityThreshold": P, "seed": S}, "temperature": T,
/// "maximumResponseTokens": N, "toolCallingMode": "allowed" | "required" | "disallowed"}`; the sampling keys may
/// also be spelled with Foundation Models' case names, `randomTopK` and `randomProbabilityThreshold`.
///
/// Flat (Foundation Models 27's `Transcript` encoding, seen in a native request capture): `topK` or
/// `probabilityThreshold` and `randomSeed` beside `temperature`, `maximumResponseTokens` and `toolCallingMode`.
extension GenerationOptions {
    /// How a sampling mode is written.
    public enum Form: Hashable, Sendable {
        /// `"sampling": {"topK": K, "seed": S}` (fmeval's spelling).
        case nested
        /// `"sampling": {"randomTopK": K, "seed": S}` (Foundation Models' case names).
        case nestedCaseNames
        /// Foundation Models 27: `"topK": K, "randomSeed": S` beside the other options.
        case flat
    }

    private static let modelledKeys = ["sampling", "temperature", "maximumResponseTokens", "toolCallingMode"]
    private static let flatKeys = ["topK", "probabilityThreshold", "randomSeed"]

    /// Reads options from JSON; errors name the JSON path under `path`. A suite's options refuse unknown keys;
    /// a transcript's (`keepingUnknownKeys`) keep them in `additionalFields`, as later framework versions add some.
    public init(content: GeneratedContent, at path: String = "", keepingUnknownKeys: Bool = false) throws {
        let reader = try ObjectReader(content, at: path, what: "generation options")
        let known = Self.modelledKeys + (keepingUnknownKeys ? Self.flatKeys : [])
        if keepingUnknownKeys {
            additionalFields = reader.members(except: known)
        } else {
            try reader.rejectUnknownKeys(known, in: "generation options")
        }
        if let sampling = reader.optional("sampling") {
            (self.sampling, form) = try Self.samplingMode(sampling, at: reader.path("sampling"))
        }
        if keepingUnknownKeys, let flat = try Self.flatSampling(reader, nested: sampling != nil) {
            (sampling, form) = (flat, .flat)
        }
        temperature = try reader.optionalNumber("temperature", "the temperature")
        if let temperature, temperature < 0 {
            throw JSONFormatError(path: reader.path("temperature"),
                                  message: "temperature must be ≥ 0, found \(GeneratedContent.format(number: temperature))")
        }
        maximumResponseTokens = try reader.optionalCount("maximumResponseTokens", "maximumResponseTokens")
        if let mode = try reader.optionalString("toolCallingMode", "the tool-calling mode") {
            guard let value = ToolCallingMode(rawValue: mode) else {
                throw JSONFormatError(path: reader.path("toolCallingMode"),
                                      message: "unknown toolCallingMode \"\(mode)\"; use allowed, required or disallowed")
            }
            toolCallingMode = value
        }
    }

    /// Foundation Models 27's flat sampling members, nil when there are none. A `randomSeed` without `topK`
    /// or `probabilityThreshold` is not modelled (how FM 27 writes a seeded greedy mode is not confirmed) and
    /// is kept as an unknown member.
    private static func flatSampling(_ reader: ObjectReader, nested: Bool) throws -> SamplingMode? {
        let top = try reader.optionalCount("topK", "topK")
        let threshold = try reader.optionalNumber("probabilityThreshold", "probabilityThreshold")
        guard top != nil || threshold != nil else {
            if let seed = reader.optional("randomSeed") { _ = try Self.seed(seed, at: reader.path("randomSeed")) }
            return nil
        }
        guard !nested else {
            throw JSONFormatError(path: reader.path(top != nil ? "topK" : "probabilityThreshold"),
                                  message: "give the sampling mode once: nested under \"sampling\" or flat (Foundation Models 27), not both")
        }
        let seed = try reader.optional("randomSeed").map { try Self.seed($0, at: reader.path("randomSeed")) }
        return try mode(top: top, threshold: threshold, seed: seed, reader: reader, keys: ("topK", "probabilityThreshold"))
    }

    private static func samplingMode(_ content: GeneratedContent, at path: String) throws -> (SamplingMode, Form?) {
        if let word = content.stringValue {
            guard word == "greedy" else {
                throw JSONFormatError(path: path,
                    message: "unknown sampling \"\(word)\"; use \"greedy\", {\"randomTopK\": K} or {\"randomProbabilityThreshold\": P}")
            }
            return (.greedy, nil)
        }
        let reader = try ObjectReader(content, at: path,
            what: "a sampling mode (\"greedy\", {\"randomTopK\": K} or {\"randomProbabilityThreshold\": P})")
        try reader.rejectUnknownKeys(["randomTopK", "randomProbabilityThreshold", "topK", "probabilityThreshold", "seed"],
                                     in: "a sampling mode")
        let seed = try reader.optional("seed").map { try Self.seed($0, at: reader.path("seed")) }
        let (topKey, thresholdKey) = try (spelling(reader, "randomTopK", "topK"),
                                          spelling(reader, "randomProbabilityThreshold", "probabilityThreshold"))
        let top = try reader.optionalCount(topKey, topKey)
        let threshold = try reader.optionalNumber(thresholdKey, thresholdKey)
        let caseNames = reader.optional("randomTopK") != nil || reader.optional("randomProbabilityThreshold") != nil
        return (try mode(top: top, threshold: threshold, seed: seed, reader: reader, keys: (topKey, thresholdKey)),
                caseNames ? .nestedCaseNames : .nested)
    }

    private static func mode(top: Int?, threshold: Double?, seed: UInt64?, reader: ObjectReader,
                             keys: (top: String, threshold: String)) throws -> SamplingMode {
        switch (top, threshold) {
        case (let top?, nil):
            guard top >= 1 else { throw JSONFormatError(path: reader.path(keys.top), message: "\(keys.top) must be at least 1") }
            return .topK(top, seed: seed)
        case (nil, let threshold?):
            guard threshold > 0, threshold <= 1 else {
                throw JSONFormatError(path: reader.path(keys.threshold),
                    message: "\(keys.threshold) must be in (0, 1], found \(GeneratedContent.format(number: threshold))")
            }
            return .nucleus(probabilityThreshold: threshold, seed: seed)
        default:
            throw JSONFormatError(path: reader.path,
                                  message: "a sampling mode needs exactly one of \(keys.top) or \(keys.threshold)")
        }
    }

    private static func seed(_ value: GeneratedContent, at path: String) throws -> UInt64 {
        guard let number = value.numberValue, number >= 0, number == number.rounded(), number < 1.8e19 else {
            throw JSONFormatError(path: path, message: "expected the seed as a non-negative integer, found \(value.jsonString)")
        }
        return UInt64(number)
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

    /// The options' JSON value in their own form (nested when they have none); unspecified fields are left out.
    public var content: GeneratedContent { content(form: form ?? .nested) }

    /// The options' JSON value with the sampling mode written in `form`. Greedy is always `"sampling": "greedy"`:
    /// how Foundation Models 27 writes it flat is not confirmed by a published file.
    public func content(form: Form) -> GeneratedContent {
        var members: [(String, GeneratedContent)] = []
        let (topKey, thresholdKey) = form == .nestedCaseNames ? ("randomTopK", "randomProbabilityThreshold") : ("topK", "probabilityThreshold")
        func add(_ key: String, _ value: Double, seed: UInt64?) {
            if form == .flat {
                members.append((key, GeneratedContent(value)))
                if let seed { members.append(("randomSeed", GeneratedContent(Double(seed)))) }
            } else {
                members.append(("sampling", GeneratedContent(properties: [(key, GeneratedContent(value))] + Self.seedMember(seed))))
            }
        }
        switch sampling {
        case .greedy: members.append(("sampling", "greedy"))
        case .topK(let top, let seed): add(topKey, Double(top), seed: seed)
        case .nucleus(let threshold, let seed): add(thresholdKey, threshold, seed: seed)
        case nil: break
        }
        if let temperature { members.append(("temperature", GeneratedContent(temperature))) }
        if let maximumResponseTokens { members.append(("maximumResponseTokens", GeneratedContent(maximumResponseTokens))) }
        if let toolCallingMode { members.append(("toolCallingMode", GeneratedContent(toolCallingMode.rawValue))) }
        return GeneratedContent(properties: members + additionalFields.keys.sorted().map { ($0, additionalFields[$0]!) })
    }

    private static func seedMember(_ seed: UInt64?) -> [(String, GeneratedContent)] {
        seed.map { [("seed", GeneratedContent(Double($0)))] } ?? []
    }
}
