import FMCore

/// Case ids are the keys of results, the journal, `--resume` and the history, so two cases of one run must
/// never share one: not across suites, not after Unicode normalisation, not when a `/` in a suite or case
/// name (or an `@` in a case id) makes two different pairs spell the same id.
public enum CaseIDCollisions {
    /// One located error per case whose id an earlier case of `cases` already has, naming both places.
    /// Ids compare as Swift strings do, by canonical equivalence (NFC and NFD spellings are one id).
    public static func diagnostics(of cases: [ExpandedCase]) -> [Diagnostic] {
        var first: [String: ExpandedCase] = [:]
        var found: [Diagnostic] = []
        for item in cases {
            guard let earlier = first[item.id] else {
                first[item.id] = item
                continue
            }
            found.append(Diagnostic(item.location, "case id '\(item.id)' is also the id of the case at \(earlier.location) "
                + "(suite '\(earlier.suite)', case '\(earlier.caseID)'); ids key the results, so rename a suite or a case "
                + "(ids are compared after Unicode normalisation, and '/' and '@' join suite, case and variant)"))
        }
        return found
    }
}
