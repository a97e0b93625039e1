import FMCore
import FMSuite

/// `--filter EXPR`: which cases run.
///
/// EXPR is terms separated by commas; a case runs when any term matches. A term is `tag:NAME`,
/// `suite:NAME`, `id:GLOB` (matched against `suite/case[@variant]`), or a bare GLOB matched against
/// the full id and the case id. A leading `!` negates a term, and negated terms must all hold.
/// Globs use `*` (any run of characters) and `?` (one character).
public struct CaseFilter: Sendable, CustomStringConvertible {
    private struct Term: Sendable {
        enum Kind: Sendable { case tag, suite, id, bare }
        var kind: Kind
        var pattern: String
        var negated: Bool
    }

    private let terms: [Term]
    /// The expression as given.
    public let description: String

    /// Parses `expression`; throws `Fault.invalidInput` for an empty term or an unknown prefix.
    public init(_ expression: String) throws {
        description = expression
        var parsed: [Term] = []
        for raw in expression.split(separator: ",", omittingEmptySubsequences: false) {
            var text = raw.trimmingCharacters(in: .whitespaces)
            let negated = text.hasPrefix("!")
            if negated { text.removeFirst() }
            guard !text.isEmpty else {
                throw Fault.invalidInput("--filter '\(expression)': empty term; write terms like tag:NAME, suite:NAME, id:GLOB or GLOB, separated by commas")
            }
            var kind = Term.Kind.bare
            if let colon = text.firstIndex(of: ":") {
                let prefix = String(text[..<colon])
                switch prefix {
                case "tag": kind = .tag
                case "suite": kind = .suite
                case "id": kind = .id
                default:
                    throw Fault.invalidInput("--filter '\(expression)': unknown prefix '\(prefix):'; use tag:, suite: or id:")
                }
                text = String(text[text.index(after: colon)...])
            }
            parsed.append(Term(kind: kind, pattern: text, negated: negated))
        }
        terms = parsed
    }

    /// Whether `item` passes the filter.
    public func matches(_ item: ExpandedCase) -> Bool {
        let positive = terms.filter { !$0.negated }
        let negative = terms.filter(\.negated)
        let anyPositive = positive.isEmpty || positive.contains { Self.term($0, matches: item) }
        return anyPositive && !negative.contains { Self.term($0, matches: item) }
    }

    /// The non-negated terms as `(prefix, pattern)`, prefix `tag`, `suite`, `id` or empty for a bare GLOB.
    var positiveTerms: [(prefix: String, pattern: String)] {
        terms.filter { !$0.negated }.map { term in
            switch term.kind {
            case .tag: return ("tag", term.pattern)
            case .suite: return ("suite", term.pattern)
            case .id: return ("id", term.pattern)
            case .bare: return ("", term.pattern)
            }
        }
    }

    private static func term(_ term: Term, matches item: ExpandedCase) -> Bool {
        switch term.kind {
        case .tag: return item.tags.contains { glob(term.pattern, matches: $0) }
        case .suite: return glob(term.pattern, matches: item.suite)
        case .id: return glob(term.pattern, matches: item.id)
        case .bare: return glob(term.pattern, matches: item.id) || glob(term.pattern, matches: item.caseID)
        }
    }

    /// Whether `text` matches `pattern` with `*` and `?` wildcards.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == t[ti]) {
                pi += 1; ti += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
