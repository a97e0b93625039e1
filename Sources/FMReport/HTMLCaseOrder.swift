import FMEvaluate
import FMResults

/// The order the HTML report lists cases in, so it opens on what failed: failed, error, flaky, known
/// issue, then passed; cases of one status keep their order in the results.
enum HTMLCaseOrder {
    /// Where cases of `status` come: lower first. Exhaustive, so a new status must be placed here.
    static func rank(_ status: CaseStatus) -> Int {
        switch status {
        case .failed: return 0
        case .error: return 1
        case .flaky: return 2
        case .knownIssue: return 3
        case .passed: return 4
        }
    }

    /// `cases` with failed ones first (a stable sort by `rank`), each paired with its index in `cases`.
    static func sorted(_ cases: [CaseResult]) -> [(index: Int, result: CaseResult)] {
        cases.enumerated()
            .map { (index: $0.offset, result: $0.element) }
            .sorted { (rank($0.result.status), $0.index) < (rank($1.result.status), $1.index) }
    }
}
