/// A byte-level nondeterministic automaton for one grammar rule, built by threading fragments:
/// each builder takes the node where a fragment starts and returns the node where it ends.
///
/// Edges consume a byte range, take an epsilon move, or call another rule (consume one whole
/// derivation of it, then continue at the edge's target).
struct ByteNFA {
    /// One outgoing edge.
    enum Edge {
        /// Consumes one byte in `low...high` and moves to `target`.
        case bytes(low: UInt8, high: UInt8, target: Int)
        /// Moves to `target` without consuming input.
        case epsilon(target: Int)
        /// Consumes one derivation of rule `rule`, then moves to `target`.
        case call(rule: Int, target: Int)
    }

    /// Outgoing edges of each node.
    private(set) var edges: [[Edge]] = []
    /// Nodes inside a free string's body, where the next `"` closes the string.
    private(set) var stringBodyNodes = Set<Int>()
    /// Nodes inside one character of a free string's body (between the bytes of a UTF-8 sequence or an escape).
    private(set) var stringInteriorNodes = Set<Int>()

    /// Creates an automaton with one node, the start (node 0).
    init() { edges = [[]] }

    /// The start node.
    let start = 0

    /// Number of nodes.
    var nodeCount: Int { edges.count }

    /// Adds a node without edges and returns it.
    mutating func addNode() -> Int {
        edges.append([])
        return edges.count - 1
    }

    /// Marks `node` as a free string's body (see `GrammarOptions.maximumStringBytes`).
    mutating func markStringBody(_ node: Int) {
        stringBodyNodes.insert(node)
    }

    /// Marks `nodes` as inside one character of a free string's body (the guard keeps counting there).
    mutating func markStringInterior(_ nodes: Range<Int>) {
        stringInteriorNodes.formUnion(nodes)
    }

    /// Adds a byte-range edge.
    mutating func addBytes(from: Int, _ low: UInt8, _ high: UInt8, to target: Int) {
        edges[from].append(.bytes(low: low, high: high, target: target))
    }

    /// Adds an epsilon edge.
    mutating func addEpsilon(from: Int, to target: Int) {
        edges[from].append(.epsilon(target: target))
    }

    /// Adds a rule-call edge.
    mutating func addCall(from: Int, rule: Int, to target: Int) {
        edges[from].append(.call(rule: rule, target: target))
    }

    /// Appends `bytes` literally after `from`; returns the end node.
    mutating func literal<S: Sequence>(_ bytes: S, from: Int) -> Int where S.Element == UInt8 {
        var node = from
        for byte in bytes {
            let next = addNode()
            addBytes(from: node, byte, byte, to: next)
            node = next
        }
        return node
    }

    /// Appends one byte from any of `ranges` after `from`; returns the end node.
    mutating func byteClass(_ ranges: [ClosedRange<UInt8>], from: Int) -> Int {
        let next = addNode()
        for range in ranges { addBytes(from: from, range.lowerBound, range.upperBound, to: next) }
        return next
    }

    /// Appends an optional occurrence of the fragment built by `body`; returns the end node.
    mutating func optional(from: Int, _ body: (inout ByteNFA, Int) throws -> Int) rethrows -> Int {
        let end = try body(&self, from)
        addEpsilon(from: from, to: end)
        return end
    }

    /// Appends one of several alternatives, each built by a builder; returns the shared end node.
    mutating func choice(from: Int, _ alternatives: [(inout ByteNFA, Int) -> Int]) -> Int {
        let end = addNode()
        for alternative in alternatives {
            let branchStart = addNode()
            addEpsilon(from: from, to: branchStart)
            let branchEnd = alternative(&self, branchStart)
            addEpsilon(from: branchEnd, to: end)
        }
        return end
    }

    /// Appends `minimum` to `maximum` (nil: unbounded) repetitions of the fragment built by `body`.
    mutating func repeated(
        from: Int, minimum: Int, maximum: Int?, _ body: (inout ByteNFA, Int) throws -> Int
    ) rethrows -> Int {
        var node = from
        for _ in 0..<minimum { node = try body(&self, node) }
        guard let maximum else {
            let loopStart = addNode()
            addEpsilon(from: node, to: loopStart)
            let loopEnd = try body(&self, loopStart)
            addEpsilon(from: loopEnd, to: loopStart)
            let end = addNode()
            addEpsilon(from: loopStart, to: end)
            return end
        }
        let end = addNode()
        addEpsilon(from: node, to: end)
        for _ in minimum..<max(minimum, maximum) {
            node = try body(&self, node)
            addEpsilon(from: node, to: end)
        }
        return end
    }
}
