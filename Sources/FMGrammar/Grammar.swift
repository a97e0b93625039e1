/// A compiled byte-level grammar: a set of rules, each a deterministic automaton over bytes whose
/// states may also call other rules (a pushdown automaton). Rule 0 is the entry rule and is never
/// called, so reaching one of its final states means the whole document is complete.
///
/// The grammar knows nothing of tokens; `TokenMatcher` runs it over a `TokenVocabulary`.
public final class Grammar: Sendable {
    /// A call from a state: consume one derivation of `rule`, then continue at state `returnState`.
    struct Call: Hashable {
        /// The rule called.
        var rule: Int32
        /// The global state to continue at after the rule completes.
        var returnState: Int32
    }

    /// Byte transitions: `next[state * 256 + byte]` is the target state or -1.
    let next: [Int32]
    /// Rule calls available in each state.
    let calls: [[Call]]
    /// Whether each state ends its rule.
    let isFinal: [Bool]
    /// Whether each state has at least one byte transition.
    let hasBytes: [Bool]
    /// Whether each state is inside a free string's body (a `"` there closes the string).
    let isStringBody: [Bool]
    /// Whether each state is inside a free string: in its body, or within one character of it (a
    /// UTF-8 sequence or escape begun but not finished).
    let isInsideString: [Bool]
    /// The options the grammar was compiled with (the matcher applies `maximumStringBytes`).
    public let options: GrammarOptions
    /// The rule each state belongs to.
    let ruleOfState: [Int32]
    /// The start state of each rule.
    let ruleStart: [Int32]
    /// A readable name per rule, for diagnostics.
    let ruleNames: [String]

    /// The number of states over all rules.
    public var stateCount: Int { isFinal.count }
    /// The number of rules.
    public var ruleCount: Int { ruleStart.count }

    /// Determinizes each rule's automaton (rule 0 is the entry) and joins them into one table.
    init(rules: [(name: String, nfa: ByteNFA, accept: Int)], options: GrammarOptions) {
        let automata = rules.map { RuleAutomaton(nfa: $0.nfa, accept: $0.accept) }
        var ruleStart: [Int32] = []
        var offset = 0
        for automaton in automata {
            ruleStart.append(Int32(offset))
            offset += automaton.stateCount
        }
        var calls: [[Call]] = []
        var isFinal: [Bool] = [], hasBytes: [Bool] = [], isStringBody: [Bool] = [], isInsideString: [Bool] = []
        var ruleOfState: [Int32] = []
        // One allocation for the joined table; each rule's local targets shift by the rule's first state.
        let next = [Int32](unsafeUninitializedCapacity: offset * 256) { table, count in
            for (ruleIndex, automaton) in automata.enumerated() {
                let base = ruleStart[ruleIndex], start = Int(base) * 256
                for (index, target) in automaton.next.enumerated() {
                    table[start + index] = target < 0 ? -1 : target + base
                }
            }
            count = offset * 256
        }
        for (ruleIndex, automaton) in automata.enumerated() {
            let base = ruleStart[ruleIndex]
            for state in 0..<automaton.stateCount {
                calls.append(automaton.calls[state].map {
                    Call(rule: Int32($0.rule), returnState: Int32($0.target) + base)
                })
                isFinal.append(automaton.isFinal[state])
                hasBytes.append(automaton.hasBytes[state])
                isStringBody.append(automaton.isStringBody[state])
                isInsideString.append(automaton.isStringBody[state] || automaton.isStringInterior[state])
                ruleOfState.append(Int32(ruleIndex))
            }
        }
        self.next = next
        self.calls = calls
        self.isFinal = isFinal
        self.hasBytes = hasBytes
        self.isStringBody = isStringBody
        self.isInsideString = isInsideString
        self.options = options
        self.ruleOfState = ruleOfState
        self.ruleStart = ruleStart
        self.ruleNames = rules.map(\.name)
    }

    /// True when `bytes` is a complete document of this grammar.
    public func accepts<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        var simulator = StackSimulator(grammar: self)
        return simulator.run(bytes) == .complete
    }

    /// True when `bytes` can be extended to a complete document of this grammar.
    public func acceptsPrefix<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        var simulator = StackSimulator(grammar: self)
        return simulator.run(bytes) != .rejected
    }
}

/// The deterministic automaton of one rule: byte transitions, calls and final states, local numbering.
struct RuleAutomaton {
    /// `next[state * 256 + byte]`: the local target state or -1.
    var next: [Int32] = []
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

    /// Subset construction over bytes and call symbols; state 0 is the start.
    init(nfa: ByteNFA, accept: Int) {
        var index: [[Int]: Int] = [:]
        var sets: [[Int]] = []
        func intern(_ set: [Int]) -> Int {
            if let found = index[set] { return found }
            index[set] = sets.count
            sets.append(set)
            return sets.count - 1
        }
        func closure(_ seeds: [Int]) -> [Int] {
            var seen = Set(seeds)
            var stack = seeds
            while let node = stack.popLast() {
                for case .epsilon(let target) in nfa.edges[node] where seen.insert(target).inserted {
                    stack.append(target)
                }
            }
            return seen.sorted()
        }
        _ = intern(closure([nfa.start]))
        var position = 0
        while position < sets.count {
            let set = sets[position]
            var ranges: [(low: Int, high: Int, target: Int)] = []
            var callTargets: [(rule: Int, targets: [Int])] = []
            for node in set {
                for edge in nfa.edges[node] {
                    switch edge {
                    case .bytes(let low, let high, let target):
                        ranges.append((Int(low), Int(high), target))
                    case .call(let rule, let target):
                        if let slot = callTargets.firstIndex(where: { $0.rule == rule }) {
                            callTargets[slot].targets.append(target)
                        } else {
                            callTargets.append((rule, [target]))
                        }
                    case .epsilon:
                        break
                    }
                }
            }
            // The bytes split into classes at every range's ends; each class has one target set, so it
            // is interned once, not once per byte.
            var cuts = Set<Int>()
            for range in ranges {
                cuts.insert(range.low)
                cuts.insert(range.high + 1)
            }
            let bounds = cuts.sorted()
            let row = next.count
            next.append(contentsOf: repeatElement(-1, count: 256))
            var memo: [[Int]: Int] = [:]
            for (low, end) in zip(bounds, bounds.dropFirst()) {
                let targets = ranges.filter { $0.low <= low && low <= $0.high }.map(\.target)
                guard !targets.isEmpty else { continue }
                let state: Int
                if let known = memo[targets] {
                    state = known
                } else {
                    state = intern(closure(targets))
                    memo[targets] = state
                }
                for byte in low..<end { next[row + byte] = Int32(state) }
            }
            hasBytes.append(next[row..<(row + 256)].contains { $0 >= 0 })
            calls.append(callTargets.map { ($0.rule, intern(closure($0.targets))) })
            isFinal.append(set.contains(accept))
            isStringBody.append(set.contains { nfa.stringBodyNodes.contains($0) })
            isStringInterior.append(!set.isEmpty && set.allSatisfy { nfa.stringInteriorNodes.contains($0) })
            position += 1
        }
    }
}
