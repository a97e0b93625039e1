/// Byte-pair merging over token ids: the merge table and the merge loop for one piece.
struct BPEMerges: Sendable {
    /// One merge rule's outcome.
    struct Rule: Sendable {
        /// Priority: lower merges first (the line number in `tokenizer.ggml.merges`).
        var rank: Int32
        /// The token the pair becomes.
        var merged: Int32
    }

    /// Rules by pair: `left << 32 | right`.
    let rules: [UInt64: Rule]

    @inline(__always) static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }

    /// A pending merge candidate in the heap.
    private struct Candidate {
        var rank: Int32
        var left: Int32
        var right: Int32
        var leftToken: Int32
        var rightToken: Int32

        /// Lower rank first; on equal rank the leftmost pair first (llama.cpp's order).
        func precedes(_ other: Candidate) -> Bool {
            rank != other.rank ? rank < other.rank : left < other.left
        }
    }

    /// Merges `tokens` (initially one token per byte) by rank until no rule applies; appends the result.
    /// A -1 (a byte without a token) never merges and is dropped from the output, as llama.cpp does.
    func apply(_ tokens: [Int32], into output: inout [Int]) {
        if tokens.count < 2 {
            for token in tokens where token >= 0 { output.append(Int(token)) }
            return
        }
        var symbols = tokens
        var next = [Int32](0 ..< Int32(tokens.count)).map { $0 + 1 }
        var previous = [Int32](0 ..< Int32(tokens.count)).map { $0 - 1 }
        next[tokens.count - 1] = -1
        var heap: [Candidate] = []
        heap.reserveCapacity(tokens.count)
        func consider(_ left: Int32, _ right: Int32) {
            guard left >= 0, right >= 0, symbols[Int(left)] >= 0, symbols[Int(right)] >= 0, let rule = rules[Self.key(symbols[Int(left)], symbols[Int(right)])] else { return }
            push(&heap, Candidate(rank: rule.rank, left: left, right: right,
                                  leftToken: symbols[Int(left)], rightToken: symbols[Int(right)]))
        }
        for index in 0 ..< tokens.count - 1 { consider(Int32(index), Int32(index + 1)) }
        while let candidate = pop(&heap) {
            let left = Int(candidate.left), right = Int(candidate.right)
            // Skip candidates made stale by an earlier merge.
            guard symbols[left] == candidate.leftToken, symbols[right] == candidate.rightToken,
                  next[left] == candidate.right else { continue }
            symbols[left] = rules[Self.key(candidate.leftToken, candidate.rightToken)]!.merged
            symbols[right] = -1
            next[left] = next[right]
            if next[right] >= 0 { previous[Int(next[right])] = Int32(left) }
            consider(previous[left], Int32(left))
            consider(Int32(left), next[left])
        }
        var index: Int32 = 0
        while index >= 0 {
            if symbols[Int(index)] >= 0 { output.append(Int(symbols[Int(index)])) }
            index = next[Int(index)]
        }
    }

    private func push(_ heap: inout [Candidate], _ item: Candidate) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop(_ heap: inout [Candidate]) -> Candidate? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count && heap[left].precedes(heap[best]) { best = left }
            if right < heap.count && heap[right].precedes(heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return top
    }
}
