/// Byte fragments for JSON scalars: strings (UTF-8 checked, escapes), integers and numbers within
/// bounds, and literals. Numbers are written without exponents, with at most
/// `JSONFragments.maximumIntegerDigits` integer digits and `maximumFractionDigits` fraction digits,
/// so a small model cannot spin forever inside one number.
enum JSONFragments {
    /// The most digits an integer part may have (beyond this a `Double` loses integer precision).
    static let maximumIntegerDigits = 15
    /// The most fraction digits a number may have.
    static let maximumFractionDigits = 10
    /// The largest magnitude with `maximumIntegerDigits` digits.
    static let largestMagnitude: Int64 = 999_999_999_999_999

    /// One JSON-string character as written inside quotes: an unescaped UTF-8 scalar (no control
    /// characters, quote or backslash) or an escape sequence.
    static func stringCharacter(_ nfa: inout ByteNFA, from: Int) -> Int {
        let end = nfa.addNode()
        nfa.addBytes(from: from, 0x20, 0x21, to: end)
        nfa.addBytes(from: from, 0x23, 0x5B, to: end)
        nfa.addBytes(from: from, 0x5D, 0x7F, to: end)
        nonASCIIScalar(&nfa, from: from, to: end)
        let escape = nfa.literal([UInt8(ascii: "\\")], from: from)
        for byte in "\"\\/bfnrt".utf8 { nfa.addBytes(from: escape, byte, byte, to: end) }
        var hex = nfa.literal([UInt8(ascii: "u")], from: escape)
        for position in 0..<4 {
            let target = position == 3 ? end : nfa.addNode()
            for range in hexDigits { nfa.addBytes(from: hex, range.lowerBound, range.upperBound, to: target) }
            hex = target
        }
        return end
    }

    /// One non-ASCII Unicode scalar in well-formed UTF-8 (no overlongs, no surrogates), from `from` to `end`.
    static func nonASCIIScalar(_ nfa: inout ByteNFA, from: Int, to end: Int) {
        let sequences: [(ClosedRange<UInt8>, [ClosedRange<UInt8>])] = [
            (0xC2...0xDF, [0x80...0xBF]),
            (0xE0...0xE0, [0xA0...0xBF, 0x80...0xBF]),
            (0xE1...0xEC, [0x80...0xBF, 0x80...0xBF]),
            (0xED...0xED, [0x80...0x9F, 0x80...0xBF]),
            (0xEE...0xEF, [0x80...0xBF, 0x80...0xBF]),
            (0xF0...0xF0, [0x90...0xBF, 0x80...0xBF, 0x80...0xBF]),
            (0xF1...0xF3, [0x80...0xBF, 0x80...0xBF, 0x80...0xBF]),
            (0xF4...0xF4, [0x80...0x8F, 0x80...0xBF, 0x80...0xBF]),
        ]
        for (lead, continuations) in sequences {
            var node = nfa.byteClass([lead], from: from)
            for (position, range) in continuations.enumerated() {
                if position == continuations.count - 1 {
                    nfa.addBytes(from: node, range.lowerBound, range.upperBound, to: end)
                } else {
                    node = nfa.byteClass([range], from: node)
                }
            }
        }
    }

    /// Hexadecimal digit byte ranges.
    static let hexDigits: [ClosedRange<UInt8>] = [0x30...0x39, 0x41...0x46, 0x61...0x66]

    /// A whole JSON string: quotes around any characters.
    static func string(_ nfa: inout ByteNFA, from: Int) -> Int {
        let body = nfa.literal([UInt8(ascii: "\"")], from: from)
        nfa.markStringBody(body)
        let firstInterior = nfa.nodeCount
        nfa.addEpsilon(from: stringCharacter(&nfa, from: body), to: body)
        nfa.markStringInterior(firstInterior..<nfa.nodeCount)
        return nfa.literal([UInt8(ascii: "\"")], from: body)
    }

    /// One of several exact byte strings (a trie after determinization).
    static func oneOf(_ literals: [[UInt8]], _ nfa: inout ByteNFA, from: Int) -> Int {
        let end = nfa.addNode()
        for literal in literals { nfa.addEpsilon(from: nfa.literal(literal, from: from), to: end) }
        return end
    }

    /// The decimal digits of `value` (non-negative).
    private static func digits(_ value: Int64) -> [UInt8] { Array(String(value).utf8) }

    /// Non-negative integers in `low...high` without leading zeros. Every branch ends in one shared chain
    /// of "any n more digits" nodes, so determinizing gives one state per digits-left count instead of one
    /// per path that reached it (an unbounded number went from 318 states to 106).
    static func magnitude(_ nfa: inout ByteNFA, from: Int, low: Int64, high: Int64) -> Int {
        var tails = [nfa.addNode()]
        guard low <= high else { return tails[0] }
        let lowDigits = digits(low).count, highDigits = digits(high).count
        for _ in 1..<highDigits {
            let node = nfa.addNode()
            nfa.addBytes(from: node, UInt8(ascii: "0"), UInt8(ascii: "9"), to: tails[tails.count - 1])
            tails.append(node)
        }
        for length in lowDigits...highDigits {
            let floor: Int64 = length == 1 ? 0 : power(10, length - 1)
            let ceiling: Int64 = power(10, length) - 1
            let rangeLow = max(low, floor), rangeHigh = min(high, ceiling)
            guard rangeLow <= rangeHigh else { continue }
            sameLength(&nfa, from: from, low: ArraySlice(digits(rangeLow)), high: ArraySlice(digits(rangeHigh)),
                       tails: tails)
        }
        return tails[0]
    }

    /// 10^exponent.
    private static func power(_ base: Int64, _ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * base }
    }

    /// Digit strings of equal length between `low` and `high` (inclusive), from `from` to `tails[0]`;
    /// `tails[n]` is the node from which exactly n more digits reach `tails[0]`.
    private static func sameLength(_ nfa: inout ByteNFA, from: Int, low: ArraySlice<UInt8>, high: ArraySlice<UInt8>,
                                   tails: [Int]) {
        guard let first = low.first, let top = high.first else { return nfa.addEpsilon(from: from, to: tails[0]) }
        let restLow = low.dropFirst(), restHigh = high.dropFirst()
        if first == top {
            return sameLength(&nfa, from: nfa.literal([first], from: from), low: restLow, high: restHigh, tails: tails)
        }
        let allZero = restLow.allSatisfy { $0 == UInt8(ascii: "0") }
        let allNine = restHigh.allSatisfy { $0 == UInt8(ascii: "9") }
        let middleLow = allZero ? first : first + 1, middleHigh = allNine ? top : top - 1
        if middleLow <= middleHigh { nfa.addBytes(from: from, middleLow, middleHigh, to: tails[restLow.count]) }
        if !allZero {
            let nines = ArraySlice([UInt8](repeating: UInt8(ascii: "9"), count: restLow.count))
            sameLength(&nfa, from: nfa.literal([first], from: from), low: restLow, high: nines, tails: tails)
        }
        if !allNine {
            let zeros = ArraySlice([UInt8](repeating: UInt8(ascii: "0"), count: restHigh.count))
            sameLength(&nfa, from: nfa.literal([top], from: from), low: zeros, high: restHigh, tails: tails)
        }
    }

    /// An integer in `minimum...maximum` (nil: unbounded, capped at `maximumIntegerDigits` digits).
    static func integer(_ nfa: inout ByteNFA, from: Int, minimum: Int64?, maximum: Int64?) -> Int {
        let end = nfa.addNode()
        let low = max(minimum ?? -largestMagnitude, -largestMagnitude)
        let high = min(maximum ?? largestMagnitude, largestMagnitude)
        if high >= 0 {
            nfa.addEpsilon(from: magnitude(&nfa, from: from, low: max(low, 0), high: high), to: end)
        }
        if low < 0 {
            let sign = nfa.literal([UInt8(ascii: "-")], from: from)
            nfa.addEpsilon(from: magnitude(&nfa, from: sign, low: max(1, high < 0 ? -high : 1), high: -low), to: end)
        }
        return end
    }

    /// A number in `minimum...maximum` where the bounds are integers (or nil): an integer part and
    /// an optional fraction; a value equal to a bound allows only zero fraction digits.
    static func number(_ nfa: inout ByteNFA, from: Int, minimum: Int64?, maximum: Int64?) -> Int {
        let end = nfa.addNode()
        let low = max(minimum ?? -largestMagnitude, -largestMagnitude)
        let high = min(maximum ?? largestMagnitude, largestMagnitude)
        func side(_ nfa: inout ByteNFA, from: Int, lowMagnitude: Int64, highMagnitude: Int64) {
            if lowMagnitude <= highMagnitude - 1 {
                let whole = magnitude(&nfa, from: from, low: lowMagnitude, high: highMagnitude - 1)
                nfa.addEpsilon(from: fraction(&nfa, from: whole, zerosOnly: false), to: end)
            }
            if lowMagnitude <= highMagnitude {
                let whole = magnitude(&nfa, from: from, low: highMagnitude, high: highMagnitude)
                nfa.addEpsilon(from: fraction(&nfa, from: whole, zerosOnly: true), to: end)
            }
        }
        if high >= 0 { side(&nfa, from: from, lowMagnitude: max(low, 0), highMagnitude: high) }
        if low < 0 {
            let sign = nfa.literal([UInt8(ascii: "-")], from: from)
            side(&nfa, from: sign, lowMagnitude: high < 0 ? -high : 0, highMagnitude: -low)
        }
        return end
    }

    /// An optional fraction: `.` and 1…`maximumFractionDigits` digits (only zeros when `zerosOnly`).
    private static func fraction(_ nfa: inout ByteNFA, from: Int, zerosOnly: Bool) -> Int {
        nfa.optional(from: from) { nfa, node in
            let point = nfa.literal([UInt8(ascii: ".")], from: node)
            let digit: ClosedRange<UInt8> = zerosOnly ? 0x30...0x30 : 0x30...0x39
            return nfa.repeated(from: point, minimum: 1, maximum: maximumFractionDigits) { nfa, node in
                nfa.byteClass([digit], from: node)
            }
        }
    }
}
