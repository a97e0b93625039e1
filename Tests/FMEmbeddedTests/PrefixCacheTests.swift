import FMEmbedded
import Testing

/// The radix tree on its own, over a KV cache whose every half names its layer, position and element,
/// so a restored half in the wrong place shows.
@Suite struct PrefixCacheTests {
    static let (layers, kvDim, capacity) = (3, 4, 64)

    /// The half a position of a layer holds in `fill`: distinct for every (layer, kind, position, element).
    static func half(layer: Int, value: Bool, position: Int, element: Int) -> UInt16 {
        UInt16(((layer * 2 + (value ? 1 : 0)) * capacity + position) * kvDim + element)
    }

    /// A cache with `half(…)` at every slot.
    static func filled() -> KVCache {
        let cache = KVCache(layerCount: layers, kvDim: kvDim, capacity: capacity)
        for layer in 0..<layers {
            for position in 0..<capacity {
                for element in 0..<kvDim {
                    cache.keys(layer: layer)[position * kvDim + element] = half(layer: layer, value: false, position: position, element: element)
                    cache.values(layer: layer)[element * capacity + position] = half(layer: layer, value: true, position: position, element: element)
                }
            }
        }
        return cache
    }

    /// Positions of `cache` holding what `filled()` put there, for positions `range`.
    static func holdsFill(_ cache: KVCache, _ range: Range<Int>) -> Bool {
        (0..<layers).allSatisfy { layer in
            range.allSatisfy { position in
                (0..<kvDim).allSatisfy { element in
                    cache.keys(layer: layer)[position * kvDim + element] == half(layer: layer, value: false, position: position, element: element)
                        && cache.values(layer: layer)[element * capacity + position] == half(layer: layer, value: true, position: position, element: element)
                }
            }
        }
    }

    /// Whether every key and value half of `range` is zero.
    static func isZero(_ cache: KVCache, _ range: Range<Int>) -> Bool {
        (0..<layers).allSatisfy { layer in
            range.allSatisfy { position in
                (0..<kvDim).allSatisfy { cache.keys(layer: layer)[position * kvDim + $0] == 0 && cache.values(layer: layer)[$0 * capacity + position] == 0 }
            }
        }
    }

    func tree(budgetTokens: Int) -> PrefixCache {
        PrefixCache(layerCount: Self.layers, kvDim: Self.kvDim, budgetBytes: budgetTokens * 2 * Self.layers * Self.kvDim * 2)
    }

    @Test func storedSpansRestoreIntoTheirPositionsAcrossSplits() {
        let cache = tree(budgetTokens: 100), source = Self.filled()
        #expect(cache.bytesPerToken == 2 * Self.layers * Self.kvDim * 2)
        cache.store(tokens: [1, 2, 3, 4, 5, 6], from: source)
        cache.store(tokens: [1, 2, 3, 9, 9], from: source)
        cache.store(tokens: [1, 2], from: source)
        #expect(cache.longestPrefix(of: [1, 2, 3, 4, 5, 6, 7]) == 6)
        #expect(cache.longestPrefix(of: [1, 2, 3, 9, 9, 9]) == 5)
        #expect(cache.longestPrefix(of: [1, 2, 3, 4, 8]) == 4, "a prompt ending inside a span")
        #expect(cache.longestPrefix(of: [1]) == 1, "a prompt shorter than every stored one")
        #expect(cache.longestPrefix(of: [7, 1, 2]) == 0)
        #expect(cache.stats.storedTokens == 8 && cache.stats.bytes == 8 * cache.bytesPerToken, "shared positions are stored once")

        let target = KVCache(layerCount: Self.layers, kvDim: Self.kvDim, capacity: Self.capacity)
        cache.restore(tokens: [1, 2, 3, 9, 9, 9], count: 5, into: target)
        #expect(Self.holdsFill(target, 0..<5) && Self.isZero(target, 5..<Self.capacity))
        let partial = KVCache(layerCount: Self.layers, kvDim: Self.kvDim, capacity: Self.capacity)
        cache.restore(tokens: [1, 2, 3, 4, 5, 6], count: 5, into: partial, from: 2)
        #expect(Self.isZero(partial, 0..<2) && Self.holdsFill(partial, 2..<5) && Self.isZero(partial, 5..<Self.capacity))
    }

    @Test func theBudgetHoldsAndTheLeastRecentlyUsedLeafGoesFirst() {
        let cache = tree(budgetTokens: 10), source = Self.filled()
        let target = KVCache(layerCount: Self.layers, kvDim: Self.kvDim, capacity: Self.capacity)
        cache.store(tokens: [1, 1, 1, 1], from: source)
        cache.store(tokens: [2, 2, 2, 2], from: source)
        cache.restore(tokens: [1, 1, 1, 1], count: 4, into: target)
        cache.store(tokens: [3, 3, 3, 3], from: source)
        #expect(cache.stats.bytes <= cache.budgetBytes)
        #expect(cache.longestPrefix(of: [2, 2, 2, 2]) == 0, "the leaf used longest ago is evicted")
        #expect(cache.longestPrefix(of: [1, 1, 1, 1]) == 4 && cache.longestPrefix(of: [3, 3, 3, 3]) == 4)
        #expect(cache.stats.evictions == 1 && cache.stats.evictedTokens == 4 && cache.stats.storedTokens == 8)

        cache.store(tokens: [1, 1, 1, 1, 5, 5, 5], from: source)
        #expect(cache.longestPrefix(of: [3, 3, 3, 3]) == 0 && cache.longestPrefix(of: [1, 1, 1, 1, 5, 5, 5]) == 7)
        #expect(cache.stats.bytes <= cache.budgetBytes && cache.stats.peakBytes > cache.budgetBytes,
                "eviction runs right after the store that went over")

        cache.store(tokens: Array(repeating: 6, count: 15), from: source)
        #expect(cache.longestPrefix(of: Array(repeating: 6, count: 15)) == 10, "a sequence over the budget keeps what fits")
        #expect(cache.stats.bytes == cache.budgetBytes && cache.longestPrefix(of: [1, 1, 1, 1]) == 0)
    }

    @Test func aZeroBudgetStoresNothing() {
        let cache = tree(budgetTokens: 0)
        cache.store(tokens: [1, 2, 3], from: Self.filled())
        #expect(cache.longestPrefix(of: [1, 2, 3]) == 0 && cache.stats.bytes == 0 && cache.stats.budgetBytes == 0)
    }

    @Test func statsCountLookupsAndRemoveAllEmptiesTheTree() {
        let cache = tree(budgetTokens: 20)
        cache.store(tokens: [1, 2, 3], from: Self.filled())
        cache.record(promptTokens: 10, reusedTokens: 0, restoredTokens: 0)
        cache.record(promptTokens: 10, reusedTokens: 6, restoredTokens: 2)
        let stats = cache.stats
        #expect(stats.lookups == 2 && stats.hits == 1 && stats.promptTokens == 20 && stats.reusedTokens == 6 && stats.restoredTokens == 2)
        #expect(stats.hitRate == 0.3)
        cache.removeAll()
        #expect(cache.longestPrefix(of: [1, 2, 3]) == 0 && cache.stats.bytes == 0 && cache.stats.lookups == 2)
    }
}
