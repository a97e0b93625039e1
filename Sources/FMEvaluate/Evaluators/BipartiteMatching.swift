/// Maximum-cardinality bipartite matching (augmenting paths): an optimal assignment of expectations
/// (left) to tool calls (right), where a greedy first-match assignment can miss a complete one.
struct BipartiteMatching {
    /// `edges[left]`: the right vertices `left` may be matched to, in preference order.
    let edges: [[Int]]
    /// The right vertex each left vertex is matched to, or nil.
    private(set) var leftMatch: [Int?]
    /// The left vertex each right vertex is matched to.
    private(set) var rightMatch: [Int: Int] = [:]

    /// Computes a maximum matching of `edges`.
    init(edges: [[Int]]) {
        self.edges = edges
        leftMatch = Array(repeating: nil, count: edges.count)
        for left in edges.indices {
            var visited: Set<Int> = []
            _ = augment(from: left, visited: &visited)
        }
    }

    /// How many left vertices are matched.
    var size: Int { leftMatch.compactMap { $0 }.count }

    /// Tries to match `left`, re-matching others along an augmenting path.
    private mutating func augment(from left: Int, visited: inout Set<Int>) -> Bool {
        for right in edges[left] where !visited.contains(right) {
            visited.insert(right)
            if let owner = rightMatch[right] {
                guard augment(from: owner, visited: &visited) else { continue }
            }
            leftMatch[left] = right
            rightMatch[right] = left
            return true
        }
        return false
    }
}
