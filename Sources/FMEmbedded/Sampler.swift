#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMCore

/// How the next token is chosen from the logits.
public enum SamplingMode: Sendable, Equatable {
    /// The most likely token (ties go to the lowest id, as llama.cpp's greedy sampler does).
    case greedy
    /// Sample among the `k` most likely tokens.
    case topK(Int)
    /// Sample among the most likely tokens whose probabilities sum to at least `p` (nucleus sampling).
    case topP(Double)
}

/// Sampling settings: mode, temperature and an optional seed for reproducible draws.
public struct SamplingParameters: Sendable, Equatable {
    /// The selection rule.
    public var mode: SamplingMode
    /// Logits are divided by this before sampling; 0 or less means greedy.
    public var temperature: Double
    /// Seed of the random generator; nil draws one from the system.
    public var seed: UInt64?

    /// Greedy argmax decoding, the harness default.
    public static let greedy = SamplingParameters(mode: .greedy, temperature: 1, seed: nil)

    /// Settings with every field given.
    public init(mode: SamplingMode, temperature: Double = 1, seed: UInt64? = nil) {
        self.mode = mode
        self.temperature = temperature
        self.seed = seed
    }
}

/// Chooses tokens from logits; forbidden tokens arrive as -infinity and are never chosen.
public struct Sampler {
    /// The settings in use.
    public let parameters: SamplingParameters
    private var random: SplitMix64
    private var candidates: [(token: Int32, weight: Double)] = []

    /// A sampler for `parameters`.
    public init(_ parameters: SamplingParameters) {
        self.parameters = parameters
        var system = SystemRandomNumberGenerator()
        random = SplitMix64(seed: parameters.seed ?? system.next())
    }

    /// The chosen token, or nil when every logit is -infinity (nothing is allowed).
    public mutating func sample(_ logits: UnsafeBufferPointer<Float>) -> Int32? {
        guard let best = Self.argmax(logits) else { return nil }
        if parameters.mode == .greedy || parameters.temperature <= 0 { return best }
        let inverseTemperature = 1 / parameters.temperature, top = Double(logits[Int(best)])
        candidates.removeAll(keepingCapacity: true)
        for (i, logit) in logits.enumerated() where logit > -.infinity {
            let weight = exp((Double(logit) - top) * inverseTemperature)
            if weight > 1e-12 { candidates.append((Int32(i), weight)) }
        }
        candidates.sort { $0.weight > $1.weight || ($0.weight == $1.weight && $0.token < $1.token) }
        var keep = candidates.count
        switch parameters.mode {
        case .greedy:
            return best
        case .topK(let k):
            keep = max(1, min(k, keep))
        case .topP(let p):
            let total = candidates.reduce(0) { $0 + $1.weight }
            var running = 0.0
            for (i, candidate) in candidates.enumerated() {
                running += candidate.weight
                if running >= p * total { keep = i + 1; break }
            }
        }
        let total = candidates[0..<keep].reduce(0) { $0 + $1.weight }
        var draw = Double(random.next() >> 11) / Double(1 << 53) * total
        for candidate in candidates[0..<keep] {
            draw -= candidate.weight
            if draw < 0 { return candidate.token }
        }
        return candidates[keep - 1].token
    }

    /// Chooses `token`, the one token a constraint allows, without logits: the token `sample` would
    /// return, advancing the random generator as `sample` does for a single candidate (one draw when
    /// sampling), so that the draws after it are the ones a run computing its logits would make.
    public mutating func chooseForced(_ token: Int32) -> Int32 {
        if parameters.mode != .greedy && parameters.temperature > 0 { _ = random.next() }
        return token
    }

    /// The index of the largest finite logit (lowest index on ties), or nil when none is finite.
    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32? {
        var best = -1
        var value = -Float.infinity
        for i in 0..<logits.count where logits[i] > value {
            value = logits[i]
            best = i
        }
        return best < 0 ? nil : Int32(best)
    }
}
