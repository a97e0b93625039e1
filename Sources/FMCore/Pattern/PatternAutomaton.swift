/// A `RegexPattern` compiled to a nondeterministic automaton over Unicode scalars (Thompson's
/// construction, counted repetitions unrolled). Matching simulates every state at once, so it takes
/// time linear in the string (times the automaton's size) and never backtracks. Guided generation
/// (FMGrammar) turns the same automaton into byte-level grammar rules; validation runs it directly.
public struct PatternAutomaton: Sendable {
    /// One outgoing edge.
    public enum Edge: Sendable {
        /// Moves to `target` without consuming input.
        case epsilon(target: Int)
        /// Consumes one scalar of the set and moves to `target`.
        case characters(RegexPattern.CharacterSet, target: Int)
    }

    /// Outgoing edges of each state.
    public private(set) var edges: [[Edge]] = [[]]
    /// The start state.
    public let start = 0
    /// The accepting state.
    public private(set) var accept = 0

    /// The automaton of `pattern`.
    public init(_ pattern: RegexPattern) {
        accept = emit(pattern.node, from: start)
    }

    /// Parses and compiles `source`; throws `PatternSyntaxError`.
    public init(pattern source: String) throws {
        self.init(try RegexPattern(source))
    }

    /// True when the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        var current = closure(of: [start])
        for scalar in text.unicodeScalars {
            var next: [Int] = []
            for state in current {
                for case .characters(let set, let target) in edges[state] where set.contains(scalar) { next.append(target) }
            }
            if next.isEmpty { return false }
            current = closure(of: next)
        }
        return current.contains(accept)
    }

    /// Every state reachable from `states` by epsilon moves (including them), each once.
    private func closure(of states: [Int]) -> [Int] {
        var seen = Set<Int>(minimumCapacity: states.count * 2)
        var stack = states
        var result: [Int] = []
        while let state = stack.popLast() {
            guard seen.insert(state).inserted else { continue }
            result.append(state)
            for case .epsilon(let target) in edges[state] { stack.append(target) }
        }
        return result
    }

    private mutating func addState() -> Int {
        edges.append([])
        return edges.count - 1
    }

    /// Appends the automaton of `node` after `from`; returns its end state.
    private mutating func emit(_ node: RegexPattern.Node, from: Int) -> Int {
        switch node {
        case .characters(let set):
            let end = addState()
            edges[from].append(.characters(set, target: end))
            return end
        case .sequence(let items):
            return items.reduce(from) { state, item in emit(item, from: state) }
        case .alternation(let branches):
            let end = addState()
            for branch in branches {
                let branchStart = addState()
                edges[from].append(.epsilon(target: branchStart))
                edges[emit(branch, from: branchStart)].append(.epsilon(target: end))
            }
            return end
        case .repetition(let inner, let minimum, let maximum):
            var state = from
            for _ in 0..<minimum { state = emit(inner, from: state) }
            guard let maximum else {
                let loopStart = addState()
                edges[state].append(.epsilon(target: loopStart))
                edges[emit(inner, from: loopStart)].append(.epsilon(target: loopStart))
                let end = addState()
                edges[loopStart].append(.epsilon(target: end))
                return end
            }
            let end = addState()
            edges[state].append(.epsilon(target: end))
            for _ in minimum..<max(minimum, maximum) {
                state = emit(inner, from: state)
                edges[state].append(.epsilon(target: end))
            }
            return end
        }
    }
}
