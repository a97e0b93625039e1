/// The deterministic automaton of one rule: calls and final states in local numbering; its byte transitions
/// are appended to the grammar's joined table in global numbering (the rule's states start at `base`).
struct RuleAutomaton {
    /// Calls per state: (rule, local target state).
    var calls: [[(rule: Int, target: Int)]] = []
    /// Whether each state is final.
    var isFinal: [Bool] = []
    /// Whether each state has at least one byte transition.
    var hasBytes: [Bool] = []
    /// Whether each state holds a string-body node.
    var isStringBody: [Bool] = []
    /// Whether each state holds only nodes within one character of a string body.
    var isStringInterior: [Bool] = []
    /// Number of states.
    var stateCount: Int { isFinal.count }

    /// Subset construction over bytes and call symbols; state 0 is the start. States are numbered in the
    /// order they are first reached: byte classes in ascending order, then calls in the order written.
    /// Appends one row per state to `table`: the global target per byte class of `classes`, or -1.
    init(nfa: ByteNFA, accept: Int, classes: ByteClasses, base: Int32, table: inout [Int32]) {
        var subsets = SubsetConstruction(nfa: nfa)
        _ = subsets.intern(subsets.closure([Int32(nfa.start)]))
        var position = 0
        while position < subsets.sets.count {
            let set = subsets.sets[position]
            let byteClasses = subsets.byteClasses(of: set)
            let row = table.count
            table.append(contentsOf: repeatElement(-1, count: classes.count))
            table.withUnsafeMutableBufferPointer { table in
                for (low, end, state) in byteClasses {
                    for column in Int(classes.classOf[low])...Int(classes.classOf[end - 1]) {
                        table[row + column] = base + state
                    }
                }
            }
            hasBytes.append(!byteClasses.isEmpty)
            calls.append(subsets.calls(of: set))
            isFinal.append(set.contains(Int32(accept)))
            isStringBody.append(set.contains { subsets.isBody[Int($0)] })
            isStringInterior.append(!set.isEmpty && set.allSatisfy { subsets.isInterior[Int($0)] })
            position += 1
        }
    }
}

/// The working state of one subset construction: the NFA's edges flattened by kind, the subsets found so
/// far, and scratch buffers reused from one subset to the next (a compile is mostly these loops).
private struct SubsetConstruction {
    /// Byte edges per node: `byteEdges[byteStart[node]..<byteStart[node + 1]]`.
    private var byteStart: [Int] = [0]
    private var byteEdges: [(low: Int, high: Int, target: Int32)] = []
    /// Epsilon targets per node, laid out the same way.
    private var epsilonStart: [Int] = [0]
    private var epsilonTargets: [Int32] = []
    /// Call edges per node, laid out the same way.
    private var callStart: [Int] = [0]
    private var callEdges: [(rule: Int, target: Int32)] = []
    /// Whether each node is a string body / within one character of one.
    private(set) var isBody: [Bool]
    private(set) var isInterior: [Bool]

    /// The subsets found, in the order found; a subset is its NFA nodes, sorted.
    private(set) var sets: [[Int32]] = []
    private var index: [[Int32]: Int32] = [:]

    /// Scratch: the epoch each node was last reached in, the closure's stack, a subset's byte edges,
    /// where byte classes start, and one class's targets.
    private var seen: [Int]
    private var epoch = 0
    private var stack: [Int32] = []
    private var ranges: [(low: Int, high: Int, target: Int32)] = []
    private var isCut = [Bool](repeating: false, count: 257)
    private var targets: [Int32] = []

    init(nfa: ByteNFA) {
        let count = nfa.nodeCount
        isBody = [Bool](repeating: false, count: count)
        isInterior = [Bool](repeating: false, count: count)
        for node in nfa.stringBodyNodes { isBody[node] = true }
        for node in nfa.stringInteriorNodes { isInterior[node] = true }
        seen = [Int](repeating: 0, count: count)
        for edges in nfa.edges {
            for edge in edges {
                switch edge {
                case .bytes(let low, let high, let target): byteEdges.append((Int(low), Int(high), Int32(target)))
                case .epsilon(let target): epsilonTargets.append(Int32(target))
                case .call(let rule, let target): callEdges.append((rule, Int32(target)))
                }
            }
            byteStart.append(byteEdges.count)
            epsilonStart.append(epsilonTargets.count)
            callStart.append(callEdges.count)
        }
    }

    /// The subset's number, adding it if new.
    mutating func intern(_ set: [Int32]) -> Int32 {
        if let found = index[set] { return found }
        let state = Int32(sets.count)
        index[set] = state
        sets.append(set)
        return state
    }

    /// The nodes reachable from `seeds` by epsilon moves, sorted.
    mutating func closure<S: Sequence>(_ seeds: S) -> [Int32] where S.Element == Int32 {
        epoch += 1
        var result: [Int32] = []
        stack.removeAll(keepingCapacity: true)
        for seed in seeds where seen[Int(seed)] != epoch {
            seen[Int(seed)] = epoch
            stack.append(seed)
        }
        while let node = stack.popLast() {
            result.append(node)
            for target in epsilonTargets[epsilonStart[Int(node)]..<epsilonStart[Int(node) + 1]]
            where seen[Int(target)] != epoch {
                seen[Int(target)] = epoch
                stack.append(target)
            }
        }
        result.sort()
        return result
    }

    /// The byte classes `low..<end` that lead somewhere from `set`, each with its target state, in
    /// ascending order: the bytes split at every edge's ends, and each class's targets are closed and
    /// interned once (classes with the same targets share the work).
    mutating func byteClasses(of set: [Int32]) -> [(low: Int, end: Int, state: Int32)] {
        ranges.removeAll(keepingCapacity: true)
        for node in set {
            ranges += byteEdges[byteStart[Int(node)]..<byteStart[Int(node) + 1]]
        }
        guard !ranges.isEmpty else { return [] }
        for range in ranges {
            isCut[range.low] = true
            isCut[range.high + 1] = true
        }
        var classes: [(low: Int, end: Int, state: Int32)] = []
        var memo: [(targets: [Int32], state: Int32)] = []
        var low = -1
        for byte in 0...256 where isCut[byte] {
            isCut[byte] = false
            defer { low = byte }
            guard low >= 0 else { continue }
            targets.removeAll(keepingCapacity: true)
            for range in ranges where range.low <= low && low <= range.high { targets.append(range.target) }
            guard !targets.isEmpty else { continue }
            let state: Int32
            if let known = memo.first(where: { $0.targets == targets }) {
                state = known.state
            } else {
                state = intern(closure(targets))
                memo.append((targets, state))
            }
            classes.append((low, byte, state))
        }
        return classes
    }

    /// The calls from `set`: one per rule, in the order first written, to the closure of its targets.
    mutating func calls(of set: [Int32]) -> [(rule: Int, target: Int)] {
        var grouped: [(rule: Int, targets: [Int32])] = []
        for node in set {
            for call in callEdges[callStart[Int(node)]..<callStart[Int(node) + 1]] {
                if let slot = grouped.firstIndex(where: { $0.rule == call.rule }) {
                    grouped[slot].targets.append(call.target)
                } else {
                    grouped.append((call.rule, [call.target]))
                }
            }
        }
        return grouped.map { ($0.rule, Int(intern(closure($0.targets)))) }
    }
}
