import FMCore

/// Compiles a string `pattern` into the bytes of a JSON string body, through the shared
/// `PatternAutomaton` that validation also runs: the whole string must match (see `RegexPattern`
/// for the subset). A pattern outside the subset throws `unsupportedGenerationGuide`.
struct PatternCompiler {
    private let pattern: String
    private let path: String

    /// A compiler for `pattern`; `path` is the JSON pointer used in errors.
    init(pattern: String, path: String) {
        self.pattern = pattern
        self.path = path
    }

    /// Appends the JSON-escaped bytes of every matching string after `from`; returns the end node.
    func compile(_ nfa: inout ByteNFA, from: Int) throws -> Int {
        let automaton: PatternAutomaton
        do {
            automaton = try PatternAutomaton(pattern: pattern)
        } catch let error as PatternSyntaxError {
            throw unsupported(path, error.description)
        }
        var nodes = [from]
        for _ in 1..<automaton.edges.count { nodes.append(nfa.addNode()) }
        for (state, edges) in automaton.edges.enumerated() {
            for edge in edges {
                switch edge {
                case .epsilon(let target):
                    nfa.addEpsilon(from: nodes[state], to: nodes[target])
                case .characters(let set, let target):
                    nfa.addEpsilon(from: Self.emitCharacters(set, &nfa, from: nodes[state]), to: nodes[target])
                }
            }
        }
        return nodes[automaton.accept]
    }

    /// One character of `set`, JSON-escaped where JSON requires it.
    private static func emitCharacters(_ set: RegexPattern.CharacterSet, _ nfa: inout ByteNFA, from: Int) -> Int {
        let end = nfa.addNode()
        for byte in set.ascii.sorted() {
            let text = GeneratedContent.quoted(String(UnicodeScalar(byte)))
            let bytes = Array(text.utf8.dropFirst().dropLast())
            if bytes.count == 1 {
                nfa.addBytes(from: from, byte, byte, to: end)
            } else {
                nfa.addEpsilon(from: nfa.literal(bytes, from: from), to: end)
            }
        }
        for scalar in set.scalars where !set.allNonASCII {
            nfa.addEpsilon(from: nfa.literal(Array(String(scalar).utf8), from: from), to: end)
        }
        if set.allNonASCII { JSONFragments.nonASCIIScalar(&nfa, from: from, to: end) }
        return end
    }
}
