/// Recursive-descent parser of the `RegexPattern` subset.
struct PatternParser {
    typealias Node = RegexPattern.Node
    typealias CharacterSet = RegexPattern.CharacterSet

    let scalars: [Unicode.Scalar]
    private var position = 0

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// The whole pattern's expression.
    mutating func parse() throws -> Node {
        if scalars.first == "^" { position = 1 }
        let node = try parseAlternation()
        guard position == scalars.count else { throw error("unexpected '\(scalars[position])'") }
        return node
    }

    /// An error at 0-based `offset` (default: the current position).
    private func error(_ message: String, at offset: Int? = nil) -> PatternSyntaxError {
        PatternSyntaxError(position: min(offset ?? position, scalars.count) + 1, message: message)
    }

    private mutating func parseAlternation() throws -> Node {
        var branches = [try parseSequence()]
        while position < scalars.count && scalars[position] == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws -> Node {
        var items: [Node] = []
        while position < scalars.count && scalars[position] != "|" && scalars[position] != ")" {
            if scalars[position] == "$" && position == scalars.count - 1 {
                position += 1
                break
            }
            items.append(try parseQuantified(try parseAtom()))
        }
        return .sequence(items)
    }

    private mutating func parseAtom() throws -> Node {
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "(":
            if position < scalars.count && scalars[position] == "?" {
                guard position + 1 < scalars.count && scalars[position + 1] == ":" else {
                    throw error("only (?:…) groups are supported, not look-around, named groups or flags")
                }
                position += 2
            }
            let inner = try parseAlternation()
            guard position < scalars.count && scalars[position] == ")" else { throw error("missing ')'") }
            position += 1
            return inner
        case "[": return .characters(try parseClass())
        case ".": return .characters(CharacterSet(ascii: Set(0..<128).subtracting([10, 13]), allNonASCII: true))
        case "\\": return .characters(try parseEscape())
        case "^", "$": throw error("anchors are supported only at the very start (^) and end ($)", at: position - 1)
        case "*", "+", "?", "{": throw error("a quantifier needs something before it", at: position - 1)
        default: return .characters(Self.single(scalar))
        }
    }

    private static func single(_ scalar: Unicode.Scalar) -> CharacterSet {
        scalar.isASCII ? CharacterSet(ascii: [UInt8(scalar.value)]) : CharacterSet(scalars: [scalar])
    }

    private mutating func parseQuantified(_ atom: Node) throws -> Node {
        guard position < scalars.count else { return atom }
        var result: Node
        switch scalars[position] {
        case "*": result = .repetition(atom, minimum: 0, maximum: nil); position += 1
        case "+": result = .repetition(atom, minimum: 1, maximum: nil); position += 1
        case "?": result = .repetition(atom, minimum: 0, maximum: 1); position += 1
        case "{":
            position += 1
            let minimum = try parseCount()
            var maximum: Int? = minimum
            if position < scalars.count && scalars[position] == "," {
                position += 1
                maximum = position < scalars.count && scalars[position] == "}" ? nil : try parseCount()
            }
            guard position < scalars.count && scalars[position] == "}" else { throw error("expected '}' closing a {n,m} count") }
            position += 1
            if let maximum, maximum < minimum { throw error("{\(minimum),\(maximum)} has its bounds reversed") }
            result = .repetition(atom, minimum: minimum, maximum: maximum)
        default: return atom
        }
        if position < scalars.count && scalars[position] == "?" { position += 1 }
        if position < scalars.count && "*+?{".unicodeScalars.contains(scalars[position]) {
            throw error("possessive or stacked quantifiers are not supported")
        }
        return result
    }

    private mutating func parseCount() throws -> Int {
        let start = position
        var digits = ""
        while position < scalars.count, let digit = Int(String(scalars[position])) {
            digits.append(String(digit))
            position += 1
        }
        guard let value = Int(digits) else { throw error("expected a number in a {n,m} count") }
        guard value <= RegexPattern.maximumRepetition else { throw error("counts above \(RegexPattern.maximumRepetition) are not supported", at: start) }
        return value
    }

    private mutating func parseClass() throws -> CharacterSet {
        var negated = false
        if position < scalars.count && scalars[position] == "^" { negated = true; position += 1 }
        var set = CharacterSet()
        var first = true
        while position < scalars.count && (scalars[position] != "]" || first) {
            first = false
            let low = scalars[position]
            position += 1
            if low == "\\" {
                let escaped = try parseEscape()
                set.ascii.formUnion(escaped.ascii)
                set.scalars.formUnion(escaped.scalars)
                set.allNonASCII = set.allNonASCII || escaped.allNonASCII
                continue
            }
            if position + 1 < scalars.count && scalars[position] == "-" && scalars[position + 1] != "]" {
                let high = scalars[position + 1]
                position += 2
                guard low.isASCII && high.isASCII, high != "\\" else { throw error("class ranges must be between ASCII characters") }
                guard low.value <= high.value else { throw error("class range \(low)-\(high) is reversed") }
                for value in low.value...high.value { set.ascii.insert(UInt8(value)) }
            } else {
                set.ascii.formUnion(Self.single(low).ascii)
                set.scalars.formUnion(Self.single(low).scalars)
            }
        }
        guard position < scalars.count else { throw error("missing ']'") }
        position += 1
        if negated && !set.scalars.isEmpty { throw error("negated classes may list only ASCII characters") }
        return negated ? set.inverted : set
    }

    private mutating func parseEscape() throws -> CharacterSet {
        guard position < scalars.count else { throw error("a pattern cannot end with '\\'") }
        let scalar = scalars[position]
        position += 1
        let digits = Set((UInt8(ascii: "0"))...(UInt8(ascii: "9")))
        let word = digits.union(UInt8(ascii: "a")...UInt8(ascii: "z")).union(UInt8(ascii: "A")...UInt8(ascii: "Z")).union([UInt8(ascii: "_")])
        let space: Set<UInt8> = [9, 10, 11, 12, 13, 32]
        switch scalar {
        case "d": return CharacterSet(ascii: digits)
        case "D": return CharacterSet(ascii: digits).inverted
        case "w": return CharacterSet(ascii: word)
        case "W": return CharacterSet(ascii: word).inverted
        case "s": return CharacterSet(ascii: space)
        case "S": return CharacterSet(ascii: space).inverted
        case "n": return CharacterSet(ascii: [10])
        case "t": return CharacterSet(ascii: [9])
        case "r": return CharacterSet(ascii: [13])
        case "x", "u":
            let count = scalar == "x" ? 2 : 4
            guard position + count <= scalars.count,
                  let value = UInt32(String(String.UnicodeScalarView(scalars[position..<position + count])), radix: 16),
                  let decoded = Unicode.Scalar(value) else { throw error("\\\(scalar) needs \(count) hex digits") }
            position += count
            return Self.single(decoded)
        default:
            if scalar.isASCII && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar) {
                return Self.single(scalar)
            }
            throw error("the escape \\\(scalar) is not supported", at: position - 2)
        }
    }
}
