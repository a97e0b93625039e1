import FMCore

/// One level of a judge's scale: a value and the observable features that earn it.
public struct ScaleLevel: Codable, Equatable, Sendable {
    /// The score this level gives.
    public var value: Double
    /// What a response at this level looks like.
    public var description: String

    /// Creates a scale level.
    public init(_ value: Double, _ description: String) {
        self.value = value
        self.description = description
    }
}

/// How a judge scores: pass/fail, or numeric levels each described (Apple's `ScoringScale`).
public enum ScoringScale: Codable, Equatable, Sendable {
    /// Two outcomes, each described; scores as a passing or failing metric.
    case passFail(pass: String, fail: String)
    /// Numeric levels with descriptions (an even 1–4 scale is Apple's advice for subjective quality).
    case levels([ScaleLevel])

    private enum CodingKeys: String, CodingKey { case passFail, levels }
    private struct PassFail: Codable { var pass: String; var fail: String }

    /// Decodes `{"passFail": {"pass", "fail"}}` or `{"levels": [{"value", "description"}]}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let both = try container.decodeIfPresent(PassFail.self, forKey: .passFail) {
            self = .passFail(pass: both.pass, fail: both.fail)
        } else if let levels = try container.decodeIfPresent([ScaleLevel].self, forKey: .levels) {
            self = .levels(levels)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "a judge scale needs passFail {pass, fail} or levels [{value, description}]"))
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .passFail(let pass, let fail): try container.encode(PassFail(pass: pass, fail: fail), forKey: .passFail)
        case .levels(let levels): try container.encode(levels, forKey: .levels)
        }
    }

    /// A plain pass/fail scale.
    public static let binary = ScoringScale.passFail(pass: "The response meets the criteria.", fail: "The response does not meet the criteria.")
}

/// One independently scored aspect of a response (Apple's `ScoreDimension`).
public struct ScoreDimension: Codable, Equatable, Sendable {
    /// The dimension's name; its metric is `<judge name>.<dimension name>`.
    public var name: String
    /// What the judge should assess for this dimension.
    public var description: String
    /// The dimension's scale; nil uses the judge's scale.
    public var scale: ScoringScale?
    /// For a numeric scale: the least score that passes; nil makes the score informational.
    public var minimumScore: Double?

    /// Creates a dimension.
    public init(_ name: String, description: String, scale: ScoringScale? = nil, minimumScore: Double? = nil) {
        self.name = name
        self.description = description
        self.scale = scale
        self.minimumScore = minimumScore
    }
}

/// Whether a judge must answer with one of the scale's values or may give any number.
public enum ScoringMode: String, Codable, Equatable, Sendable {
    /// Structured generation forces one of the scale values (the default).
    case discrete
    /// Any number is accepted; the scale only guides.
    case continuous
}

/// `judge`: a model scores the response on one or more dimensions in a single call, or compares it
/// pairwise against a `baseline`.
public struct JudgeConfig: Codable, Equatable, Sendable {
    /// Metric name prefix (default `judge`).
    public var name: String
    /// The engine that judges; nil uses the engine of the run.
    public var engine: String?
    /// The data a judge on an engine that reads per-case data carries (the scripted engine's `script:`, the
    /// verdicts it plays as structures); empty for other engines.
    public var engineData: EngineCaseData
    /// Extra instructions for the judge (evaluation steps, examples); nil uses the built-in ones.
    public var instructions: String?
    /// The criteria for a single-dimension judge (ignored when `dimensions` is given).
    public var criteria: String?
    /// The scale for dimensions that do not name their own.
    public var scale: ScoringScale
    /// Dimensions scored together in one call; empty means one dimension named `name` using `criteria`.
    public var dimensions: [ScoreDimension]
    /// Compare the response with `baseline` instead of scoring it alone.
    public var pairwise: Bool
    /// The baseline response for pairwise judging (required with `pairwise`).
    public var baseline: GeneratedContent?
    /// Discrete (one of the scale values) or continuous scoring.
    public var scoringMode: ScoringMode
    /// For numeric scales: the least score that passes, for dimensions without their own minimum.
    public var minimumScore: Double?
    /// Labelled reference material shown to the judge (for example a reference answer).
    public var reference: [String: String]

    /// Creates a judge configuration.
    public init(name: String = "judge", engine: String? = nil, instructions: String? = nil, criteria: String? = nil,
                scale: ScoringScale = .binary, dimensions: [ScoreDimension] = [], pairwise: Bool = false,
                baseline: GeneratedContent? = nil, scoringMode: ScoringMode = .discrete, minimumScore: Double? = nil,
                reference: [String: String] = [:], engineData: EngineCaseData = EngineCaseData()) {
        self.name = name
        self.engine = engine
        self.engineData = engineData
        self.instructions = instructions
        self.criteria = criteria
        self.scale = scale
        self.dimensions = dimensions
        self.pairwise = pairwise
        self.baseline = baseline
        self.scoringMode = scoringMode
        self.minimumScore = minimumScore
        self.reference = reference
    }

    /// The dimensions actually scored: `dimensions`, or one built from `name` and `criteria`.
    public var effectiveDimensions: [ScoreDimension] {
        if !dimensions.isEmpty { return dimensions }
        return [ScoreDimension(name, description: criteria ?? "Overall quality of the response for the prompt.")]
    }

    /// Configurations that cannot work, for suite validation.
    public var problems: [String] {
        var found: [String] = []
        if dimensions.isEmpty && criteria == nil && !pairwise {
            found.append("judge needs criteria or dimensions (what should the judge assess?)")
        }
        if baseline != nil && !pairwise { found.append("judge baseline is only used with pairwise: true; set pairwise or drop baseline") }
        if pairwise && baseline == nil { found.append("pairwise judging needs a baseline: the response to compare with") }
        var seen: Set<String> = []
        for dimension in effectiveDimensions {
            if !seen.insert(dimension.name).inserted { found.append("judge dimension '\(dimension.name)' appears twice") }
            if case .levels(let levels) = dimension.scale ?? scale {
                if levels.count < 2 { found.append("judge dimension '\(dimension.name)': a numeric scale needs at least two levels") }
                if Set(levels.map(\.value)).count != levels.count {
                    found.append("judge dimension '\(dimension.name)': scale level values must be distinct")
                }
            }
        }
        return found
    }

    private enum CodingKeys: String, CodingKey {
        case name, engine, instructions, criteria, scale, dimensions, pairwise, baseline, scoringMode, minimumScore, reference
    }

    /// Decodes the suite shape with the defaults of `init`; the engine data under the keys of the kinds the
    /// decoder carries (`EngineCaseDataKind.userInfoKey`).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "judge"
        engine = try container.decodeIfPresent(String.self, forKey: .engine)
        engineData = try EngineCaseData.decode(EngineCaseData.kinds(in: decoder), from: decoder)
        instructions = try container.decodeIfPresent(String.self, forKey: .instructions)
        criteria = try container.decodeIfPresent(String.self, forKey: .criteria)
        scale = try container.decodeIfPresent(ScoringScale.self, forKey: .scale) ?? .binary
        dimensions = try container.decodeIfPresent([ScoreDimension].self, forKey: .dimensions) ?? []
        pairwise = try container.decodeIfPresent(Bool.self, forKey: .pairwise) ?? false
        baseline = try container.decodeIfPresent(GeneratedContent.self, forKey: .baseline)
        scoringMode = try container.decodeIfPresent(ScoringMode.self, forKey: .scoringMode) ?? .discrete
        minimumScore = try container.decodeIfPresent(Double.self, forKey: .minimumScore)
        reference = try container.decodeIfPresent([String: String].self, forKey: .reference) ?? [:]
    }

    /// Encodes every property, the engine data under its own keys.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(engine, forKey: .engine)
        try container.encodeIfPresent(instructions, forKey: .instructions)
        try container.encodeIfPresent(criteria, forKey: .criteria)
        try container.encode(scale, forKey: .scale)
        try container.encode(dimensions, forKey: .dimensions)
        try container.encode(pairwise, forKey: .pairwise)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encode(scoringMode, forKey: .scoringMode)
        try container.encodeIfPresent(minimumScore, forKey: .minimumScore)
        try container.encode(reference, forKey: .reference)
        try engineData.encodeEntries(to: encoder)
    }
}

/// `command`: an external evaluator; it reads the subject as JSON on stdin and writes one JSON metric
/// (`{"value": "passing|failing|scoring|ignore", "score"?, "rationale"?}`) on stdout.
public struct CommandConfig: Codable, Equatable, Sendable {
    /// The program and its arguments (no shell is involved).
    public var argv: [String]
    /// Seconds before the command is killed and the metric fails.
    public var timeoutSeconds: Double
    /// The metric's name (default `command`).
    public var name: String

    /// Creates an external evaluator configuration.
    public init(argv: [String], timeoutSeconds: Double = 30, name: String = "command") {
        self.argv = argv
        self.timeoutSeconds = timeoutSeconds
        self.name = name
    }

    /// Configurations that cannot work, for suite validation.
    public var problems: [String] {
        var found: [String] = []
        if argv.isEmpty || argv[0].isEmpty { found.append("command needs argv: the program to run and its arguments") }
        if !(timeoutSeconds > 0) { found.append("command timeoutSeconds must be above 0, not \(formatScore(timeoutSeconds))") }
        return found
    }

    private enum CodingKeys: String, CodingKey { case argv, timeoutSeconds, name }

    /// Decodes `{"argv", "timeoutSeconds"?, "name"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        argv = try container.decode([String].self, forKey: .argv)
        timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? 30
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "command"
    }
}
