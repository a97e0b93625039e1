import Foundation

/// What one grammar state knows about every token without looking at the stack below it:
/// the tokens accepted inside the state's rule, and the few whose fate depends on the caller
/// (they complete the rule part-way through). Every other token is rejected.
struct StateTokens {
    /// Accepted tokens as a bitmask over the vocabulary, when many are accepted.
    var acceptedMask: [UInt64]?
    /// Accepted token ids, when few are accepted (empty when `acceptedMask` is set).
    var acceptedIDs: [Int32]
    /// Token ids that must be checked against the real stack at run time.
    var uncertainIDs: [Int32]
}

/// A grammar joined to a vocabulary: the per-state token tables (computed once per state, on first
/// use, shareable between matchers and threads). Create one per (schema, tokenizer) and reuse it.
// @unchecked Sendable: `states`, the only mutable state, is read and written only under `lock`.
public final class TokenTable: @unchecked Sendable {
    /// The grammar.
    public let grammar: Grammar
    /// The vocabulary.
    public let vocabulary: TokenVocabulary
    private var states: [StateTokens?]
    private let lock = NSLock()

    /// Joins `grammar` and `vocabulary`; tables are filled lazily.
    public init(grammar: Grammar, vocabulary: TokenVocabulary) {
        self.grammar = grammar
        self.vocabulary = vocabulary
        self.states = Array(repeating: nil, count: grammar.stateCount)
    }

    /// Computes the tables of every state with byte transitions now (e.g. before timing steps).
    public func precomputeAll() {
        for state in 0..<grammar.stateCount where grammar.hasBytes[state] { _ = tokens(for: Int32(state)) }
    }

    /// The number of states whose table has been computed.
    public var computedStateCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return states.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }

    /// The table of `state`, computing it on first use.
    func tokens(for state: Int32) -> StateTokens {
        lock.lock()
        if let known = states[Int(state)] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let computed = compute(state)
        lock.lock()
        states[Int(state)] = computed
        lock.unlock()
        return computed
    }

    /// The table of `state`: a body state of a free string takes the string slice's content tokens and
    /// walks only the others; any other state walks every ordinary token.
    private func compute(_ state: Int32) -> StateTokens {
        var accepted: [Int32] = []
        var uncertain: [Int32] = []
        if let slice = vocabulary.stringSlices.slice(for: state, of: grammar) {
            walk(slice.others, from: state, accepted: &accepted, uncertain: &uncertain)
            var mask = slice.contentMask
            for id in accepted { mask[Int(id) >> 6] |= 1 << UInt64(id & 63) }
            return StateTokens(acceptedMask: mask, acceptedIDs: [], uncertainIDs: uncertain)
        }
        walk(vocabulary.trie, from: state, accepted: &accepted, uncertain: &uncertain)
        if accepted.count > vocabulary.maskWordCount * 2 {
            var mask = [UInt64](repeating: 0, count: vocabulary.maskWordCount)
            for id in accepted { mask[Int(id) >> 6] |= 1 << UInt64(id & 63) }
            return StateTokens(acceptedMask: mask, acceptedIDs: [], uncertainIDs: uncertain)
        }
        return StateTokens(acceptedMask: nil, acceptedIDs: accepted, uncertainIDs: uncertain)
    }

    /// Walks `trie` depth first from `state` with an unknown caller below, classifying each token as
    /// accepted, rejected or uncertain (its fate depends on the caller). Once a prefix leaves no
    /// configuration, every token under it shares that fate and is classified without a step.
    private func walk(_ trie: TokenTrie, from state: Int32, accepted: inout [Int32], uncertain: inout [Int32]) {
        var simulator = StackSimulator(grammar: grammar)
        let bottom = grammar.ruleOfState[Int(state)] == 0 ? StackSimulator.root : StackSimulator.escape
        var levels: [Configuration] = [Configuration(state: state, parent: bottom)]
        var levelEnd: [Int] = [0, 1]
        var completedAt: [Bool] = [false]
        var escapedBy: [Bool] = [false]
        var depthComputed = 0
        let offsets = vocabulary.offsets
        vocabulary.bytes.withUnsafeBufferPointer { bytes in
            var position = 0
            while position < trie.ids.count {
                let id = Int(trie.ids[position])
                let start = offsets[id]
                let length = offsets[id + 1] - start
                var depth = min(Int(trie.sharedPrefix[position]), depthComputed)
                var dead = false
                while depth < length {
                    let levelStart = levelEnd[depth], levelStop = levelEnd[depth + 1]
                    if levelStart == levelStop {
                        dead = true
                        break
                    }
                    levels.removeSubrange(levelStop...)
                    simulator.step(&levels, range: levelStart..<levelStop, byte: bytes[start + depth])
                    depth += 1
                    if levelEnd.count <= depth + 1 {
                        levelEnd.append(levels.count)
                        completedAt.append(simulator.completed)
                        escapedBy.append(escapedBy[depth - 1] || simulator.escaped)
                    } else {
                        levelEnd[depth + 1] = levels.count
                        completedAt[depth] = simulator.completed
                        escapedBy[depth] = escapedBy[depth - 1] || simulator.escaped
                    }
                }
                depthComputed = depth
                if dead {
                    // No configuration after `depth` bytes: every token under this prefix ends the same way.
                    let end = trie.subtreeEnd(position, depth: depth)
                    if escapedBy[depth] { uncertain += trie.ids[position..<end] }
                    position = end
                    continue
                }
                let alive = levelEnd[depth] != levelEnd[depth + 1]
                if alive || completedAt[depth] {
                    accepted.append(Int32(id))
                } else if escapedBy[depth - 1] {
                    uncertain.append(Int32(id))
                }
                position += 1
            }
        }
    }
}
