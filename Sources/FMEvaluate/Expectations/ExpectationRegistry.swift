/// The expectation kinds suites may use: the loader, validation, `fmeval schema suite`, the evaluator
/// factory and the case-definition hash all read this list, so a kind is added by one line here.
public enum ExpectationRegistry {
    /// Every kind, in the order `fmeval schema suite` lists them.
    public static let kinds: [any ExpectationKind.Type] = [
        EqualsExpectation.self,
        OneOfExpectation.self,
        ContainsExpectation.self,
        RegexExpectation.self,
        NotExpectation.self,
        ConstraintExpectation.self,
        TrajectoryExpectation.self,
        ErrorExpectation.self,
        UsageBudget.self,
        LatencyBudget.self,
        SnapshotExpectation.self,
        JudgeConfig.self,
        CommandConfig.self,
    ]

    /// Every keyword, each kind's synonyms right after its keyword.
    public static var keywords: [String] {
        kinds.flatMap { [$0.keyword] + $0.synonyms }
    }

    /// The kind a keyword (or synonym) names, or nil for an unknown keyword.
    public static func kind(named keyword: String) -> (any ExpectationKind.Type)? {
        kinds.first { $0.keyword == keyword || $0.synonyms.contains(keyword) }
    }
}
