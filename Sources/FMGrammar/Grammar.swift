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

    /// Byte transitions: `next[state * classes.count + classes.classOf[byte]]` is the target state or -1
    /// (read them with `target(of:byte:)`).
    let next: [Int32]
    /// The classes of bytes the grammar tells apart: the columns of `next`.
    let classes: ByteClasses
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

    /// The state after `byte` from `state`, or -1.
    @inline(__always) func target(of state: Int, byte: Int) -> Int32 {
        next[state &* classes.count &+ Int(classes.classOf[byte])]
    }

    /// The number of states over all rules.
    public var stateCount: Int { isFinal.count }
    /// The number of rules.
    public var ruleCount: Int { ruleStart.count }

    /// Determinizes each rule's automaton (rule 0 is the entry) and joins them into one table.
    init(rules: [(name: String, nfa: ByteNFA, accept: Int)], options: GrammarOptions) {
        // One table for all rules, written in place; reserving a row per NFA node usually covers it.
        let classes = ByteClasses(rules.lazy.map(\.nfa))
        var next: [Int32] = []
        next.reserveCapacity(rules.reduce(0) { $0 + $1.nfa.nodeCount } * classes.count)
        var ruleStart: [Int32] = []
        var calls: [[Call]] = []
        var isFinal: [Bool] = [], hasBytes: [Bool] = [], isStringBody: [Bool] = [], isInsideString: [Bool] = []
        var ruleOfState: [Int32] = []
        for (ruleIndex, rule) in rules.enumerated() {
            let base = Int32(isFinal.count)
            let automaton = RuleAutomaton(nfa: rule.nfa, accept: rule.accept, classes: classes, base: base,
                                          table: &next)
            ruleStart.append(base)
            calls += automaton.calls.map {
                $0.map { Call(rule: Int32($0.rule), returnState: base + Int32($0.target)) }
            }
            isFinal += automaton.isFinal
            hasBytes += automaton.hasBytes
            isStringBody += automaton.isStringBody
            isInsideString += zip(automaton.isStringBody, automaton.isStringInterior).map { $0 || $1 }
            ruleOfState += repeatElement(Int32(ruleIndex), count: automaton.stateCount)
        }
        self.next = next
        self.classes = classes
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
