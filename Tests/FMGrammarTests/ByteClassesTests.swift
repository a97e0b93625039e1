import FMCore
import Testing
@testable import FMGrammar

/// Byte classes: bytes of one class are on the same side of every edge of every rule, classes ascend
/// with the byte, and a JSON grammar needs far fewer than 256.
@Suite struct ByteClassesTests {
    @Test func bytesOfOneClassMeetTheSameEdges() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            var automata: [ByteNFA] = []
            var ranges: [ClosedRange<Int>] = []
            for _ in 0..<3 {
                var nfa = ByteNFA()
                for _ in 0..<Int(random.next() % 6) {
                    let a = Int(random.next() % 256), b = Int(random.next() % 256)
                    nfa.addBytes(from: nfa.start, UInt8(min(a, b)), UInt8(max(a, b)), to: nfa.addNode())
                    ranges.append(min(a, b)...max(a, b))
                }
                automata.append(nfa)
            }
            let classes = ByteClasses(automata)
            #expect(classes.count <= 2 * ranges.count + 1)
            #expect(classes.classOf.first == 0 && Int(classes.classOf[255]) == classes.count - 1)
            for byte in 1..<256 {
                let step = Int(classes.classOf[byte]) - Int(classes.classOf[byte - 1])
                #expect(step == 0 || step == 1)
                if step == 0 { #expect(ranges.allSatisfy { $0.contains(byte) == $0.contains(byte - 1) }) }
            }
        }
    }

    @Test func aReferenceSchemaNeedsAFewDozenClasses() throws {
        let grammar = try Grammar.json(schema: ReferenceSchemas.load("newsletter"))
        #expect(grammar.classes.count < 128, "\(grammar.classes.count) classes")
        #expect(grammar.next.count == grammar.stateCount * grammar.classes.count)
    }
}
