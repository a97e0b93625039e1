import FMCore
import Testing
@testable import FMGrammar

/// Integer and number ranges: the grammar accepts exactly the in-range decimal spellings.
@Suite struct NumberGrammarTests {
    private func grammar(_ type: String, _ minimum: Int?, _ maximum: Int?) throws -> Grammar {
        var json = #"{"type":"\#(type)""#
        if let minimum { json += #","minimum":\#(minimum)"# }
        if let maximum { json += #","maximum":\#(maximum)"# }
        return try Grammar.json(schema: GenerationSchema(json: json + "}"))
    }

    @Test(arguments: [(-120, 37), (0, 9), (18, 100), (-7, -3), (5, 5), (95, 1234), (-1000, -999), (0, 0)])
    func integerRangesAreExact(bounds: (Int, Int)) throws {
        let grammar = try grammar("integer", bounds.0, bounds.1)
        for value in -1300...1300 {
            #expect(grammar.accepts(Array(String(value).utf8)) == (bounds.0...bounds.1).contains(value), "\(value) in \(bounds)")
        }
        #expect(!grammar.accepts(Array("-0".utf8)))
        #expect(!grammar.accepts(Array("007".utf8)))
    }

    @Test func halfOpenIntegerRanges() throws {
        let atLeast = try grammar("integer", 18, nil)
        let atMost = try grammar("integer", nil, -2)
        for value in -300...300 {
            #expect(atLeast.accepts(Array(String(value).utf8)) == (value >= 18))
            #expect(atMost.accepts(Array(String(value).utf8)) == (value <= -2))
        }
        #expect(atLeast.accepts(Array("999999999999999".utf8)))
        #expect(!atLeast.accepts(Array("1000000000000000".utf8)))
    }

    /// Wide random bounds (up to 15 digits, either sign): every value near each bound, at each power of ten
    /// and each run of nines between them is accepted exactly when in range.
    @Test func wideIntegerRangesAreExact() throws {
        var random = SplitMix64(seed: 33)
        let largest = JSONFragments.largestMagnitude
        func draw() -> Int64 {
            let digits = Int(random.next() % 15) + 1
            let magnitude = Int64(random.next() % UInt64(String(repeating: "9", count: digits))!)
            return random.next() % 3 == 0 ? -magnitude : magnitude
        }
        for _ in 0..<40 {
            let (a, b) = (draw(), draw())
            let (low, high) = (min(a, b), max(a, b))
            let grammar = try grammar("integer", Int(low), Int(high))
            var probes: [Int64] = [-largest, largest, 0]
            for bound in [low, high] { probes += (-3...3).map { bound + $0 } }
            var power: Int64 = 1
            for _ in 0..<15 {
                probes += [power, power - 1, -power, 1 - power, 2 * power - 1, power + 9]
                power *= 10
            }
            for value in probes where abs(value) <= largest {
                #expect(grammar.accepts(Array(String(value).utf8)) == (low...high).contains(value),
                        "\(value) in \(low)...\(high)")
            }
        }
    }

    /// The digits share one chain of "any n more digits" states, so the unbounded number stays small
    /// (318 states when each path kept its own chain).
    @Test func unboundedNumbersDeterminizeSmall() throws {
        #expect(try grammar("number", nil, nil).stateCount < 120)
        #expect(try grammar("integer", nil, nil).stateCount < 40)
    }

    @Test func numbersAreCalledRulesSharedByEveryPropertyWithTheirBounds() throws {
        let property = #"{"type":"number","minimum":0}"#
        let names = ["a", "b", "c", "d", "e"]
        let schema = try GenerationSchema(json: #"{"type":"object","title":"T","properties":{"#
            + names.map { "\"\($0)\":\(property)" }.joined(separator: ",") + #"},"required":[]}"#)
        let grammar = try Grammar.json(schema: schema)
        let lone = try self.grammar("number", 0, nil)
        // One copy of the number's automaton, not one per optional property and choice of those before it
        // (five optional numbers determinized in place took 2,907 states).
        #expect(grammar.stateCount < lone.stateCount + 100,
                "\(grammar.stateCount) states, a number alone \(lone.stateCount)")
        for document in [#"{}"#, #"{"a":1.5}"#, #"{"b":0,"e":12.25}"#, #"{"a":0, "b":1, "c":2, "d":3, "e":4.0}"#] {
            #expect(grammar.accepts(Array(document.utf8)), "\(document)")
        }
        for document in [#"{"a":-1}"#, #"{"b":1,"a":2}"#, #"{"a":1e3}"#, #"{"c":}"#] {
            #expect(!grammar.accepts(Array(document.utf8)), "\(document)")
        }
    }

    @Test func numbersWithIntegralBounds() throws {
        let grammar = try grammar("number", -2, 3)
        let inside = ["0", "-0", "3", "3.0", "3.000", "-2", "-2.00", "-1.99", "2.5", "0.123456789", "-0.5"]
        let outside = ["3.01", "-2.1", "4", "-3", "1.", ".5", "1e3", "01.5", "2.12345678901"]
        for text in inside { #expect(grammar.accepts(Array(text.utf8)), "\(text)") }
        for text in outside { #expect(!grammar.accepts(Array(text.utf8)), "\(text)") }
        let free = try self.grammar("number", nil, nil)
        #expect(free.accepts(Array("-12345.25".utf8)))
    }
}
