/// Any JSON value, for places where the structure is required but the schema is deliberately not
/// enforced (tool-call arguments on the prompt channel). Objects and arrays nest at most
/// `SchemaCompiler.genericDepthLimit` levels; deeper values are scalars.
extension SchemaCompiler {
    /// The deepest nesting of generic objects and arrays.
    static let genericDepthLimit = 4

    /// Appends any JSON object (free keys, any values) after `from`.
    mutating func anyObject(_ nfa: inout ByteNFA, from: Int, depth: Int = 1) -> Int {
        call(genericRule(object: true, depth: depth), &nfa, from: from)
    }

    /// Appends any JSON value nested `depth` levels deep.
    private mutating func anyValue(_ nfa: inout ByteNFA, from: Int, depth: Int) -> Int {
        let end = nfa.addNode()
        let scalars: [[UInt8]] = [Array("true".utf8), Array("false".utf8), Array("null".utf8)]
        nfa.addEpsilon(from: JSONFragments.oneOf(scalars, &nfa, from: from), to: end)
        nfa.addEpsilon(from: JSONFragments.string(&nfa, from: from), to: end)
        nfa.addEpsilon(from: JSONFragments.number(&nfa, from: from, minimum: nil, maximum: nil), to: end)
        if depth < Self.genericDepthLimit {
            nfa.addEpsilon(from: call(genericRule(object: true, depth: depth + 1), &nfa, from: from), to: end)
            nfa.addEpsilon(from: call(genericRule(object: false, depth: depth + 1), &nfa, from: from), to: end)
        }
        return end
    }

    /// The rule of a generic object (`{"key": value, …}`) or array (`[value, …]`) at `depth`.
    private mutating func genericRule(object: Bool, depth: Int) -> Int {
        let (rule, isNew) = reserve("generic|\(object ? "object" : "array")|\(depth)")
        guard isNew else { return rule }
        var nfa = ByteNFA()
        let open = nfa.literal(Array((object ? "{" : "[").utf8), from: nfa.start)
        let accept = nfa.addNode()
        let close = UInt8(ascii: object ? "}" : "]")
        nfa.addBytes(from: open, close, close, to: accept)
        let member = nfa.addNode()
        nfa.addEpsilon(from: open, to: member)
        var cursor = member
        if object {
            cursor = space(&nfa, from: nfa.literal(Array(":".utf8), from: JSONFragments.string(&nfa, from: cursor)))
        }
        cursor = anyValue(&nfa, from: cursor, depth: depth)
        nfa.addBytes(from: cursor, close, close, to: accept)
        nfa.addEpsilon(from: space(&nfa, from: nfa.literal(Array(",".utf8), from: cursor)), to: member)
        rules[rule] = ("any \(object ? "object" : "array")", nfa, accept)
        return rule
    }
}
