import FMCore

/// `reproduce:` — a case's attempts with controlled variation, so how often it reproduces a bug can be
/// measured: each wording (the prompt, then each paraphrase) × each seed is one attempt.
public struct Reproduce: Hashable, Sendable, Encodable {
    /// The sampling seeds, one attempt per seed and wording; empty: greedy attempts (one per wording).
    public var seeds: [UInt64]
    /// The temperature of seeded attempts (nil when there are no seeds).
    public var temperature: Double?
    /// The sampling of seeded attempts, without a seed (nil when there are no seeds).
    public var sampling: GenerationOptions.SamplingMode?
    /// More wordings of the prompt; the case's own prompt is wording 0, these are 1….
    public var paraphrases: [String]

    /// The temperature seeded attempts use unless `temperature` is given.
    public static let defaultTemperature = 0.7
    /// The sampling seeded attempts use unless `sampling` is given.
    public static let defaultSampling = GenerationOptions.SamplingMode.topK(40, seed: nil)

    /// Greedy attempts over `paraphrases`, or seeded ones when `seeds` is not empty (the defaults fill in
    /// temperature and sampling).
    public init(seeds: [UInt64] = [], temperature: Double? = nil, sampling: GenerationOptions.SamplingMode? = nil, paraphrases: [String] = []) {
        self.seeds = seeds
        self.temperature = seeds.isEmpty ? nil : temperature ?? Self.defaultTemperature
        self.sampling = seeds.isEmpty ? nil : sampling ?? Self.defaultSampling
        self.paraphrases = paraphrases
    }

    /// Attempts: (1 + paraphrases) × max(1, seeds).
    public var trials: Int { (1 + paraphrases.count) * max(1, seeds.count) }

    /// The wording and seed of attempt `index` (wording-major: every seed of wording 0, then wording 1, …).
    public func trial(_ index: Int) -> Trial {
        let perWording = max(1, seeds.count)
        let position = index % trials
        return Trial(paraphrase: position / perWording, seed: seeds.isEmpty ? nil : seeds[position % perWording])
    }

    /// `options` as attempt `trial` runs them: its seed, this temperature and sampling; unchanged when greedy.
    public func options(_ options: GenerationOptions, for trial: Trial) -> GenerationOptions {
        guard let seed = trial.seed else { return options }
        var seeded = options
        seeded.temperature = temperature
        switch sampling {
        case .nucleus(let p, _)?: seeded.sampling = .nucleus(probabilityThreshold: p, seed: seed)
        case .topK(let k, _)?: seeded.sampling = .topK(k, seed: seed)
        case .greedy?, nil: seeded.sampling = .topK(40, seed: seed)
        }
        return seeded
    }

    private enum CodingKeys: String, CodingKey { case seeds, temperature, sampling, paraphrases, trials }

    /// Encodes seeds, temperature and sampling (when seeded), paraphrases and the number of trials.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seeds, forKey: .seeds)
        try container.encodeIfPresent(temperature, forKey: .temperature)
        if let sampling { try container.encode(GenerationOptions(sampling: sampling).content["sampling"], forKey: .sampling) }
        try container.encode(paraphrases, forKey: .paraphrases)
        try container.encode(trials, forKey: .trials)
    }
}

/// One attempt of a `reproduce` case: which wording it uses and the seed it samples with.
public struct Trial: Hashable, Sendable {
    /// 0 for the case's own prompt, i for paraphrase i.
    public var paraphrase: Int
    /// The sampling seed; nil for a greedy attempt.
    public var seed: UInt64?

    /// Creates a trial.
    public init(paraphrase: Int, seed: UInt64?) {
        self.paraphrase = paraphrase
        self.seed = seed
    }
}
