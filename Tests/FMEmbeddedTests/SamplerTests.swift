import FMCore
@testable import FMEmbedded
import FMKernels
import Foundation
import Testing

/// The greedy choice as a plain scan: the lowest index of the largest value above -infinity.
private func scannedArgmax(_ x: [Float]) -> Int32? {
    var best: Int32?, value = -Float.infinity
    for (i, v) in x.enumerated() where v > value { (best, value) = (Int32(i), v) }
    return best
}

/// Top-k sampling as written before the heap: every candidate weighed, all of them sorted, the first
/// `k` drawn from with the same generator (the oracle the sampler must agree with draw for draw).
private func sortedTopK(_ logits: [Float], k: Int, temperature: Double, random: inout SplitMix64) -> Int32? {
    guard let best = scannedArgmax(logits) else { return nil }
    let top = Double(logits[Int(best)]), inverseTemperature = 1 / temperature
    var candidates: [(token: Int32, weight: Double)] = []
    for (i, logit) in logits.enumerated() where logit > -.infinity {
        let weight = exp((Double(logit) - top) * inverseTemperature)
        if weight > 1e-12 { candidates.append((Int32(i), weight)) }
    }
    candidates.sort { $0.weight > $1.weight || ($0.weight == $1.weight && $0.token < $1.token) }
    let keep = max(1, min(k, candidates.count))
    let total = candidates[0..<keep].reduce(0) { $0 + $1.weight }
    var draw = Double(random.next() >> 11) / Double(1 << 53) * total
    for candidate in candidates[0..<keep] {
        draw -= candidate.weight
        if draw < 0 { return candidate.token }
    }
    return candidates[keep - 1].token
}

@Suite struct SamplerTests {
    /// Logits of `count` entries in one of six shapes: spread, few distinct values (ties), NaN and
    /// -infinity sprinkled, only zeros of both signs, +infinity somewhere, or nothing allowed.
    private func logits(_ count: Int, shape: Int, random: inout KernelRandom) -> [Float] {
        (0..<count).map { _ in
            let v = random.signed(), pick = random.next() % 8
            switch shape {
            case 0: return v * 20
            case 1: return Float(Int(v * 3))
            case 2: return pick == 0 ? .nan : pick == 1 ? -.infinity : v
            case 3: return pick < 3 ? -.infinity : pick < 5 ? -0.0 : 0.0
            case 4: return pick == 0 && random.next() % 16 == 0 ? .infinity : v
            default: return -.infinity
            }
        }
    }

    @Test func argmaxIsTheScansChoiceAtEveryLevel() {
        var random = KernelRandom(seed: 41)
        for count in [0, 1, 7, 8, 15, 16, 17, 31, 33, 100, 1000, 49_152] {
            for shape in 0..<6 {
                let x = logits(count, shape: shape, random: &random)
                for level in supportedLevels {
                    let chosen = atLevel(level) { x.withUnsafeBufferPointer { Sampler.argmax($0) } }
                    #expect(chosen == scannedArgmax(x), "\(count) logits of shape \(shape) at \(levelName(level))")
                }
            }
        }
    }

    @Test func theHeapKeepsExactlyTheFirstOfAFullSort() {
        var random = KernelRandom(seed: 5)
        for count in [1, 9, 40, 321, 5000] {
            for k in [1, 2, 40, 400] {
                // Few distinct weights, so ties are broken by token id.
                let items = (0..<count).map { (token: Int32($0), weight: Double(random.next() % 50) / 7) }.shuffled()
                var ranked = items
                Sampler.rankFirst(min(k, count), of: &ranked)
                let sorted = items.sorted(by: Sampler.ranksBefore)
                #expect(ranked.prefix(k).map(\.token) == sorted.prefix(k).map(\.token), "\(count) candidates, k \(k)")
            }
        }
    }

    @Test func weightsSkippedUnweighedAreBelowTheCut() {
        #expect(exp(Sampler.lowestKeptExponent) < 1e-12 && exp(Sampler.lowestKeptExponent.nextUp) < 1e-12)
    }

    @Test func topKDrawsAreTheFullSortsDrawForDraw() {
        var random = KernelRandom(seed: 17)
        for (count, k, temperature, shape) in [(50, 2, 1.0, 0), (49_152, 40, 0.3, 1), (49_152, 40, 2.0, 1),
                                               (3000, 5, 0.7, 1), (49_152, 40, 0.3, 0), (49_152, 40, 1.0, 0)] {
            let x = logits(count, shape: shape, random: &random)
            var sampler = Sampler(SamplingParameters(mode: .topK(k), temperature: temperature, seed: 99))
            var oracle = SplitMix64(seed: 99)
            let draws = x.withUnsafeBufferPointer { buffer in (0..<50).map { _ in sampler.sample(buffer) } }
            let expected = (0..<50).map { _ in sortedTopK(x, k: k, temperature: temperature, random: &oracle) }
            #expect(draws == expected, "\(count) logits, top \(k) at temperature \(temperature)")
        }
    }
}
