/// A `pattern` of the Foundation Models dialect, parsed: the regular-expression subset that both guided
/// generation and validation compile to an automaton (`PatternAutomaton`), so neither ever backtracks.
///
/// A pattern matches the WHOLE string, as Apple's `@Guide(.pattern(…))` constrains the whole generated
/// string (it is read as if wrapped in `^(?:…)$`; a leading `^` and trailing `$` change nothing).
/// Supported: literals, `.` (any character but a line break), classes `[a-z_]` and `[^…]`,
/// `\d \w \s \D \W \S` (ASCII), escapes (`\n \t \r \xHH \uHHHH` and escaped punctuation), groups `(…)` and
/// `(?:…)`, alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (lazy forms match the same strings).
/// Anything else (back-references, look-around, `\b`, flags, Unicode properties, anchors inside) is a
/// `PatternSyntaxError`.
public struct RegexPattern: Hashable, Sendable {
    /// A set of characters: ASCII bytes, optionally every non-ASCII scalar, and single non-ASCII scalars.
    public struct CharacterSet: Hashable, Sendable {
        /// ASCII members.
        public var ascii = Set<UInt8>()
        /// Whether every non-ASCII scalar is a member.
        public var allNonASCII = false
        /// Individual non-ASCII members.
        public var scalars = Set<Unicode.Scalar>()

        /// A set of the given members.
        public init(ascii: Set<UInt8> = [], allNonASCII: Bool = false, scalars: Set<Unicode.Scalar> = []) {
            self.ascii = ascii
            self.allNonASCII = allNonASCII
            self.scalars = scalars
        }

        /// The complement (within all scalars).
        public var inverted: CharacterSet {
            CharacterSet(ascii: Set(0..<128).subtracting(ascii), allNonASCII: !allNonASCII && scalars.isEmpty, scalars: [])
        }

        /// True when `scalar` is a member.
        public func contains(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? ascii.contains(UInt8(scalar.value)) : allNonASCII || scalars.contains(scalar)
        }
    }

    /// The parsed expression.
    public indirect enum Node: Hashable, Sendable {
        /// One character from a set.
        case characters(CharacterSet)
        /// Items one after another.
        case sequence([Node])
        /// Any one of the branches.
        case alternation([Node])
        /// `minimum` to `maximum` (nil: unbounded) repetitions.
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    /// The largest repetition count accepted in `{n,m}`.
    public static let maximumRepetition = 256
    /// The most automaton states a pattern may expand to (counted repetitions are unrolled).
    public static let maximumStates = 100_000

    /// The pattern as written.
    public let source: String
    /// The parsed expression.
    public let node: Node

    /// Parses `source`; throws `PatternSyntaxError` for anything outside the supported subset.
    public init(_ source: String) throws {
        var parser = PatternParser(scalars: Array(source.unicodeScalars))
        self.source = source
        self.node = try parser.parse()
        let states = Self.stateCount(node)
        guard states <= Self.maximumStates else {
            throw PatternSyntaxError(position: 1, message: "the pattern expands to more than \(Self.maximumStates) automaton states; use smaller {n,m} counts")
        }
    }

    /// An upper bound on the automaton states `node` compiles to (saturating).
    static func stateCount(_ node: Node) -> Int {
        switch node {
        case .characters: return 1
        case .sequence(let items): return items.reduce(1) { min(maximumStates + 1, $0 + stateCount($1)) }
        case .alternation(let branches): return branches.reduce(2) { min(maximumStates + 1, $0 + stateCount($1) + 1) }
        case .repetition(let inner, let minimum, let maximum):
            let copies = max(1, maximum ?? (minimum + 1))
            let (product, overflow) = copies.multipliedReportingOverflow(by: stateCount(inner))
            return overflow ? maximumStates + 1 : min(maximumStates + 1, 2 + product)
        }
    }
}

/// A pattern outside the supported subset: where (1-based character position) and what.
public struct PatternSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based position of the offending character in the pattern.
    public var position: Int
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(position: Int, message: String) {
        self.position = position
        self.message = message
    }

    /// "pattern character N: message; patterns support …".
    public var description: String {
        "pattern character \(position): \(message); patterns support literals, ., [classes], \\d \\w \\s, groups, | and quantifiers"
    }
}
