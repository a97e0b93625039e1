import FMEvaluate

/// The result of running a case again in a session reused after other cases (the `contamination` option):
/// the same attempts, their turns after the earlier cases' prompts, scored on the case's own turns.
public struct ContaminationResult: Codable, Hashable, Sendable {
    /// The cases whose prompts the reused session answered first, in order (`suite/case@variant`).
    public var after: [String]
    /// Each reused attempt's status, parallel to the case's attempts.
    public var statuses: [AttemptOutcome]
    /// True when a reused attempt passed where its fresh one failed, or failed where it passed.
    public var dependsOnHistory: Bool
    /// The first attempt whose verdict differs.
    public var attempt: Int?
    /// What differed (or why no verdict could be compared), for people.
    public var detail: String?

    /// Creates a contamination verdict.
    public init(after: [String], statuses: [AttemptOutcome], dependsOnHistory: Bool, attempt: Int? = nil,
                detail: String? = nil) {
        self.after = after
        self.statuses = statuses
        self.dependsOnHistory = dependsOnHistory
        self.attempt = attempt
        self.detail = detail
    }
}
