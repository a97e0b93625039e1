#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMCore
import FMKernels

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
            // e^-28 is below the 1e-12 cut, so a lower exponent is dropped without computing its weight.
            let exponent = (Double(logit) - top) * inverseTemperature
            guard exponent > Self.lowestKeptExponent else { continue }
            let weight = exp(exponent)
            if weight > 1e-12 { candidates.append((Int32(i), weight)) }
        }
        guard !candidates.isEmpty else { return best }
        var keep = candidates.count
        switch parameters.mode {
        case .greedy:
            return best
        case .topK(let k):
            keep = max(1, min(k, keep))
            Self.rankFirst(keep, of: &candidates)
        case .topP(let p):
            candidates.sort(by: Self.ranksBefore)
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

    /// An exponent at or below this weighs under the 1e-12 every candidate must exceed (e^-28 ≈ 6.9e-13).
    static let lowestKeptExponent = -28.0

    /// Whether candidate `a` comes before `b`: heavier first, then the lower token id (a total order,
    /// since ids are distinct).
    static func ranksBefore(_ a: (token: Int32, weight: Double), _ b: (token: Int32, weight: Double)) -> Bool {
        a.weight > b.weight || (a.weight == b.weight && a.token < b.token)
    }

    /// Puts the `count` candidates that rank first at the front, in rank order (the rest in no order):
    /// exactly the first `count` of a full sort, found with a heap of `count` instead of sorting all.
    static func rankFirst(_ count: Int, of items: inout [(token: Int32, weight: Double)]) {
        guard count * 8 < items.count else { return items.sort(by: ranksBefore) }
        items.withUnsafeMutableBufferPointer { all in
            // A heap over all[0..<count] whose root ranks last: each later candidate that ranks before
            // the root replaces it.
            func siftDown(_ start: Int) {
                var node = start
                while true {
                    let left = 2 * node + 1, right = left + 1
                    var last = node
                    if left < count && ranksBefore(all[last], all[left]) { last = left }
                    if right < count && ranksBefore(all[last], all[right]) { last = right }
                    if last == node { return }
                    all.swapAt(node, last)
                    node = last
                }
            }
            for node in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(node) }
            for i in count..<all.count where ranksBefore(all[i], all[0]) {
                all.swapAt(0, i)
                siftDown(0)
            }
            all[0..<count].sort(by: ranksBefore)
        }
    }

    /// The index of the largest finite logit (lowest index on ties), or nil when none is finite.
    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32? {
        guard let base = logits.baseAddress else { return nil }
        let best = fmk_argmax_f32(base, Int32(logits.count))
        return best < 0 ? nil : best
    }
}
