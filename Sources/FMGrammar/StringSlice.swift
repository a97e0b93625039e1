import FMCore

/// The tokens a free JSON string's body takes whatever surrounds the string: computed once per vocabulary
/// on a canonical string grammar, so that a body state's table needs a walk over the few other tokens
/// only (those with a quote, a backslash, a control byte or a broken UTF-8 sequence), not the whole
/// vocabulary. The body is a small automaton (a state after a space differs from one after a letter, for
/// instance), so there is a slice per body state of the canonical grammar; a state of any grammar uses the
/// slice whose body automaton, seen from it, is the same: the same states inside the string, reached the
/// same way, the same ways out.
struct StringSlices: Sendable {
    /// One body state's slice.
    struct Slice: Sendable {
        /// The tokens that keep the body inside the string, byte after byte, as a mask.
        let contentMask: [UInt64]
        /// Every other ordinary token, to walk from the state.
        let others: TokenTrie
    }

    /// The slices by the body automaton seen from their state (`signature(of:in:)`).
    private let slices: [[Int32]: Slice]

    /// The slices of the ordinary tokens `ordinary` (non-empty) over `tokens`.
    init(ordinary: [Int], tokens: [[UInt8]], wordCount: Int) {
        var slices: [[Int32]: Slice] = [:]
        if let grammar = try? Grammar.json(schema: GenerationSchema(root: .init(.string(.init())))) {
            for body in 0..<grammar.stateCount where grammar.isStringBody[body] {
                guard let signature = Self.signature(of: Int32(body), in: grammar), slices[signature] == nil else {
                    continue
                }
                slices[signature] = Self.slice(from: Int32(body), of: grammar, ordinary: ordinary, tokens: tokens,
                                               wordCount: wordCount)
            }
        }
        self.slices = slices
    }

    /// The slice `state` of `grammar` may use: a string body shaped, from it, like a canonical body state.
    func slice(for state: Int32, of grammar: Grammar) -> Slice? {
        guard grammar.isStringBody[Int(state)], let signature = Self.signature(of: state, in: grammar) else {
            return nil
        }
        return slices[signature]
    }

    /// The tokens that stay inside the string from `body`, and the trie of the others.
    private static func slice(from body: Int32, of grammar: Grammar, ordinary: [Int], tokens: [[UInt8]],
                              wordCount: Int) -> Slice {
        var mask = [UInt64](repeating: 0, count: wordCount)
        var others: [Int] = []
        for id in ordinary {
            var state = body
            for byte in tokens[id] {
                state = grammar.target(of: Int(state), byte: Int(byte))
                if state < 0 || !grammar.isInsideString[Int(state)] { break }
            }
            if state >= 0 && grammar.isInsideString[Int(state)] {
                mask[id >> 6] |= 1 << UInt64(id & 63)
            } else {
                others.append(id)
            }
        }
        return Slice(contentMask: mask, others: TokenTrie(ids: others, tokens: tokens))
    }

    /// The automaton of the states inside the string that `state` reaches without leaving it, numbered in
    /// the order a breadth-first walk finds them: per state, per byte, the target's number, -1 for no
    /// transition and -2 for one out of the string. nil when a state inside has calls or ends its rule
    /// (a string body never does), so nothing is shared with it.
    static func signature(of state: Int32, in grammar: Grammar) -> [Int32]? {
        var number: [Int32: Int32] = [state: 0]
        var queue: [Int32] = [state]
        var rows: [Int32] = []
        var head = 0
        while head < queue.count {
            let current = Int(queue[head])
            head += 1
            guard grammar.calls[current].isEmpty, !grammar.isFinal[current] else { return nil }
            for byte in 0..<256 {
                let target = grammar.target(of: current, byte: byte)
                if target < 0 {
                    rows.append(-1)
                } else if !grammar.isInsideString[Int(target)] {
                    rows.append(-2)
                } else if let known = number[target] {
                    rows.append(known)
                } else {
                    number[target] = Int32(queue.count)
                    rows.append(Int32(queue.count))
                    queue.append(target)
                }
            }
        }
        return rows
    }
}
