/// The bytes a grammar tells apart: every byte edge of every rule starts and ends on a class boundary, so
/// bytes of one class have the same transitions everywhere and a state's row is one entry per class (a
/// JSON grammar has a few dozen classes, not 256).
struct ByteClasses {
    /// The class of each byte, ascending with the byte.
    let classOf: [UInt8]
    /// The number of classes.
    let count: Int

    /// The classes of the byte edges in `automata`.
    init<S: Sequence>(_ automata: S) where S.Element == ByteNFA {
        var isCut = [Bool](repeating: false, count: 257)
        for nfa in automata {
            for edges in nfa.edges {
                for case .bytes(let low, let high, _) in edges {
                    isCut[Int(low)] = true
                    isCut[Int(high) + 1] = true
                }
            }
        }
        var classOf = [UInt8](repeating: 0, count: 256)
        var current = -1
        for byte in 0..<256 {
            if byte == 0 || isCut[byte] { current += 1 }
            classOf[byte] = UInt8(current)
        }
        self.classOf = classOf
        count = current + 1
    }
}
