import FMCore

/// The expectation kinds a run accepts: the loader, validation, `fmeval schema suite`, the decoder of
/// `Expectation` and the case-definition hash all read the registry they are given. `builtIn` holds
/// fmeval's kinds; a library user registers their own (`registering(_:)`) and passes the registry to
/// `SuiteLoader` (or `EvalSuite.load`), so a kind is added by one type and one registration line.
public struct ExpectationRegistry: Sendable {
    /// Every kind, in the order `fmeval schema suite` lists them.
    public let kinds: [any ExpectationKind.Type]

    /// fmeval's own kinds.
    public static let builtIn = ExpectationRegistry(checked: [
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
    ])

    private init(checked kinds: [any ExpectationKind.Type]) { self.kinds = kinds }

    /// This registry with `kind` added after its kinds. Throws an `invalidInput` fault when the kind's
    /// keyword or a synonym is empty or already names a kind: a suite key must name one kind only.
    public func registering(_ kind: any ExpectationKind.Type) throws -> ExpectationRegistry {
        for keyword in [kind.keyword] + kind.synonyms {
            guard !keyword.isEmpty else {
                throw Fault.invalidInput("expectation kind \(kind): a keyword or synonym is empty; give it a name")
            }
            if let taken = self.kind(named: keyword) {
                throw Fault.invalidInput("expectation kind \(kind): '\(keyword)' already names \(taken); "
                    + "choose another keyword (taken: \(keywords.joined(separator: ", ")))")
            }
        }
        return ExpectationRegistry(checked: kinds + [kind])
    }

    /// Every keyword, each kind's synonyms right after its keyword.
    public var keywords: [String] {
        kinds.flatMap { [$0.keyword] + $0.synonyms }
    }

    /// The kind a keyword (or synonym) names, or nil for an unknown keyword.
    public func kind(named keyword: String) -> (any ExpectationKind.Type)? {
        kinds.first { $0.keyword == keyword || $0.synonyms.contains(keyword) }
    }

    /// The `userInfo` key under which a decoder carries the registry `Expectation` decodes with.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "fmeval.expectationRegistry")!

    /// The registry `decoder` carries, else `builtIn`.
    public static func of(_ decoder: Decoder) -> ExpectationRegistry {
        decoder.userInfo[userInfoKey] as? ExpectationRegistry ?? .builtIn
    }
}
