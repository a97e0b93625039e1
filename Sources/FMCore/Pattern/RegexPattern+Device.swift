extension RegexPattern {
    /// True for a pattern the `device` guide-enforcement profile accepts: a run of single-character
    /// atoms (literals, `.`, classes, `\d \w \s`, escapes), each optionally quantified, in any plain
    /// grouping. Alternation `|` and quantified groups (`(ab)+`, `(?:x|y){2}`) are not simple.
    public var isSimple: Bool { Self.isSimple(node) }

    private static func isSimple(_ node: Node) -> Bool {
        switch node {
        case .characters: return true
        case .sequence(let items): return items.allSatisfy(isSimple)
        case .alternation: return false
        case .repetition(let inner, _, _):
            if case .characters = inner { return true }
            return false
        }
    }
}
