#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `PrefixCache` has done so far, summed over its lifetime (a snapshot).
public struct PrefixCacheStats: Sendable, Equatable, Codable {
    /// Requests looked up (every `Generator.generate`).
    public var lookups = 0
    /// Lookups that reused at least one prompt token (from the live KV cache or the tree).
    public var hits = 0
    /// Prompt tokens of every lookup.
    public var promptTokens = 0
    /// Prompt tokens not recomputed: held by the live KV cache or restored from the tree.
    public var reusedTokens = 0
    /// Prompt tokens copied from the tree into the KV cache (part of `reusedTokens`).
    public var restoredTokens = 0
    /// Tokens whose keys and values the tree holds now.
    public var storedTokens = 0
    /// Bytes of keys and values the tree holds now.
    public var bytes = 0
    /// The most bytes the tree has held at once.
    public var peakBytes = 0
    /// The tree's memory budget in bytes (0: the tree is off; only the live KV cache is reused).
    public var budgetBytes = 0
    /// Nodes evicted to stay within the budget.
    public var evictions = 0
    /// Tokens those evictions dropped.
    public var evictedTokens = 0

    /// An empty record.
    public init() {}

    /// Reused prompt tokens over all prompt tokens (0 before the first lookup).
    public var hitRate: Double { promptTokens == 0 ? 0 : Double(reusedTokens) / Double(promptTokens) }
}

/// Keys and values of token sequences a model has already run, kept so that a later prompt starting
/// with one of them is restored into the KV cache instead of recomputed (SGLang's RadixAttention).
///
/// A radix tree over token sequences from position 0: each node owns a span of tokens (the edge from its
/// parent) and a copy of their keys and values for every layer, at the span's absolute positions
/// (keys are rotated by position, so a span is only valid where it was computed). Memory is bounded by
/// `budgetBytes`: storing past it evicts least-recently-used leaves. Thread-safe (one lock).
// @unchecked Sendable: the tree and the stats are read and written only under `lock`.
public final class PrefixCache: @unchecked Sendable {
    /// The budget when none is given: room for ≈ 11,000 tokens of SmolLM2-135M (22.5 KB each).
    public static let defaultBudgetBytes = 256 << 20
    /// The memory budget in bytes; 0 stores nothing.
    public let budgetBytes: Int
    /// Number of layers of the model whose keys and values are stored.
    public let layerCount: Int
    /// Halves per position per layer (key/value heads × head size).
    public let kvDim: Int
    /// Bytes one stored token takes: keys and values, every layer, as halves.
    public var bytesPerToken: Int { 2 * layerCount * kvDim * MemoryLayout<UInt16>.stride }

    private let lock = PosixLock()
    private let root = PrefixNode(tokens: [], start: 0, layerCount: 0, kvDim: 0)
    private var clock: UInt64 = 0
    private var counters = PrefixCacheStats()

    /// A cache for a model of `layerCount` layers and `kvDim` halves per position, holding at most
    /// `budgetBytes` (negative counts as 0).
    public init(layerCount: Int, kvDim: Int, budgetBytes: Int = PrefixCache.defaultBudgetBytes) {
        self.layerCount = layerCount
        self.kvDim = kvDim
        self.budgetBytes = max(0, budgetBytes)
        counters.budgetBytes = self.budgetBytes
    }

    /// A cache shaped for `model`'s KV cache.
    public convenience init(model: LlamaModel, budgetBytes: Int = PrefixCache.defaultBudgetBytes) {
        self.init(layerCount: model.config.layerCount, kvDim: model.config.kvDim, budgetBytes: budgetBytes)
    }

    /// The statistics so far.
    public var stats: PrefixCacheStats { lock.withLock { counters } }

    /// How many leading tokens of `tokens` the tree holds keys and values for.
    public func longestPrefix(of tokens: [Int32]) -> Int {
        lock.withLock { walk(tokens, touching: false).matched }
    }

    /// Copies the stored keys and values of positions `start..<count` of `tokens` into `cache`
    /// (`count` at most `longestPrefix(of: tokens)`), marking the nodes used.
    public func restore(tokens: [Int32], count: Int, into cache: KVCache, from start: Int = 0) {
        precondition(count <= cache.capacity, "restoring past the KV cache's capacity")
        lock.withLock {
            let path = walk(Array(tokens.prefix(count)), touching: true)
            precondition(path.matched == count, "restoring \(count) tokens of which only \(path.matched) are stored")
            for node in path.nodes {
                let from = max(start, node.start), to = min(count, node.end)
                if from < to { node.copy(positions: from..<to, into: cache) }
            }
        }
    }

    /// Stores the keys and values `cache` holds for `tokens` (at positions `0..<tokens.count`): the part
    /// not already stored is copied, then least-recently-used leaves are evicted until the tree fits
    /// its budget. A sequence longer than the whole budget is stored up to what fits.
    public func store(tokens: [Int32], from cache: KVCache) {
        precondition(tokens.count <= cache.capacity, "storing past the KV cache's capacity")
        let fitting = Array(tokens.prefix(budgetBytes / bytesPerToken))
        guard !fitting.isEmpty else { return }
        lock.withLock {
            let path = walk(fitting, touching: true)
            var parent = path.nodes.last ?? root
            let matched = path.matched
            if matched < parent.end {
                parent = split(parent, at: matched)
            }
            if matched < fitting.count {
                let leaf = PrefixNode(tokens: Array(fitting[matched...]), start: matched, layerCount: layerCount, kvDim: kvDim)
                leaf.copy(from: cache)
                leaf.parent = parent
                leaf.lastUsed = tick()
                parent.children[leaf.tokens[0]] = leaf
                counters.storedTokens += leaf.tokens.count
                counters.bytes += leaf.byteCount
                counters.peakBytes = max(counters.peakBytes, counters.bytes)
            }
            evictToBudget()
        }
    }

    /// Adds one request to the statistics: its prompt length, the tokens not recomputed, and how many
    /// of those came from the tree.
    public func record(promptTokens: Int, reusedTokens: Int, restoredTokens: Int) {
        lock.withLock {
            counters.lookups += 1
            counters.hits += reusedTokens > 0 ? 1 : 0
            counters.promptTokens += promptTokens
            counters.reusedTokens += reusedTokens
            counters.restoredTokens += restoredTokens
        }
    }

    /// Drops every stored sequence (the statistics keep counting).
    public func removeAll() {
        lock.withLock {
            root.children = [:]
            counters.storedTokens = 0
            counters.bytes = 0
        }
    }

    /// The nodes along `tokens` from the root and how many tokens they match (the last node may
    /// match only part of its span); with `touching`, marks them used now.
    private func walk(_ tokens: [Int32], touching: Bool) -> (nodes: [PrefixNode], matched: Int) {
        var nodes: [PrefixNode] = [], node = root, matched = 0
        let now = touching ? tick() : 0
        while matched < tokens.count, let child = node.children[tokens[matched]] {
            var common = 0
            while common < child.tokens.count && matched + common < tokens.count
                    && child.tokens[common] == tokens[matched + common] { common += 1 }
            nodes.append(child)
            if touching { child.lastUsed = now }
            matched += common
            guard common == child.tokens.count else { break }
            node = child
        }
        return (nodes, matched)
    }

    /// Splits `node` at absolute position `position` (inside its span) into a parent holding the first
    /// part and `node` keeping the rest; returns the new parent.
    private func split(_ node: PrefixNode, at position: Int) -> PrefixNode {
        let head = node.prefix(upTo: position)
        let parent = node.parent!
        head.parent = parent
        head.lastUsed = node.lastUsed
        node.dropPrefix(upTo: position)
        node.parent = head
        head.children[node.tokens[0]] = node
        parent.children[head.tokens[0]] = head
        return head
    }

    /// Evicts least-recently-used leaves until the stored bytes fit the budget.
    private func evictToBudget() {
        while counters.bytes > budgetBytes, let leaf = leastRecentlyUsedLeaf() {
            leaf.parent?.children[leaf.tokens[0]] = nil
            leaf.parent = nil
            counters.storedTokens -= leaf.tokens.count
            counters.bytes -= leaf.byteCount
            counters.evictions += 1
            counters.evictedTokens += leaf.tokens.count
        }
    }

    /// The leaf used longest ago (nil when the tree is empty).
    private func leastRecentlyUsedLeaf() -> PrefixNode? {
        var best: PrefixNode?, stack = Array(root.children.values)
        while let node = stack.popLast() {
            if node.children.isEmpty {
                if best == nil || node.lastUsed < best!.lastUsed { best = node }
            } else {
                stack.append(contentsOf: node.children.values)
            }
        }
        return best
    }

    /// The next use stamp.
    private func tick() -> UInt64 {
        clock += 1
        return clock
    }
}
