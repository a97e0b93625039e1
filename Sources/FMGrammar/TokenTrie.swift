/// Some of a vocabulary's tokens sorted by their bytes, so that a walk over them is a depth-first walk of
/// their byte trie: each token shares `sharedPrefix` bytes with the one before it, and `subtreeEnd` says
/// where the tokens under any prefix of a token end, so a walk skips every token under a dead prefix at
/// once instead of visiting each.
struct TokenTrie: Sendable {
    /// Token ids in byte order.
    let ids: [Int32]
    /// For each position, the length of the prefix its token shares with the previous one.
    let sharedPrefix: [Int32]
    /// For position `p` and prefix length `k` (1…its token's length), at `nodeStart[p] + k - 1`: the first
    /// position after `p` whose token does not start with the first `k` bytes of `p`'s.
    private let nodeEnds: [Int32]
    private let nodeStart: [Int32]

    /// The trie of `ids` over `tokens` (each non-empty).
    init(ids unsorted: [Int], tokens: [[UInt8]]) {
        let sorted = unsorted.sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        var shared: [Int32] = []
        shared.reserveCapacity(sorted.count)
        var previous: [UInt8] = []
        for id in sorted {
            let current = tokens[id]
            var length = 0
            while length < min(previous.count, current.count) && previous[length] == current[length] { length += 1 }
            shared.append(Int32(length))
            previous = current
        }
        // Scanning backwards, `firstBelow[k]` is the first position after the current one whose shared
        // prefix is below k: where a node of depth k that the current position is in ends.
        let longest = sorted.map { tokens[$0].count }.max() ?? 0
        var firstBelow = [Int32](repeating: Int32(sorted.count), count: longest + 2)
        var start = [Int32](repeating: 0, count: sorted.count)
        var total = 0
        for (position, id) in sorted.enumerated() {
            start[position] = Int32(total)
            total += tokens[id].count
        }
        var ends = [Int32](repeating: 0, count: total)
        for position in stride(from: sorted.count - 1, through: 0, by: -1) {
            let length = tokens[sorted[position]].count
            for depth in 1...length { ends[Int(start[position]) + depth - 1] = firstBelow[depth] }
            for depth in (Int(shared[position]) + 1)..<(longest + 2) { firstBelow[depth] = Int32(position) }
        }
        ids = sorted.map { Int32($0) }
        sharedPrefix = shared
        nodeEnds = ends
        nodeStart = start
    }

    /// The first position after `position` whose token does not start with the first `depth` bytes of the
    /// token at `position` (1 ≤ depth ≤ its length).
    func subtreeEnd(_ position: Int, depth: Int) -> Int { Int(nodeEnds[Int(nodeStart[position]) + depth - 1]) }
}
