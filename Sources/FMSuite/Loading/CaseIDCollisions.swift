import FMCore

/// Case ids are the keys of results, the journal, `--resume` and the history, so two cases of one run must
/// never share one: not across suites, not after Unicode normalisation, not when a `/` in a suite or case
/// name (or an `@` in a case id) makes two different pairs spell the same id.
public struct CaseIDCollisions {
    /// Where an id was first seen; a class, so a table of a million ids moves 8 bytes an entry as it grows.
    private final class First {
        let location: SourceLocation
        let suite: String
        let caseID: String

        init(location: SourceLocation, suite: String, caseID: String) {
            self.location = location
            self.suite = suite
            self.caseID = caseID
        }
    }

    private var first: [String: First] = [:]
    private var pending: [String: First] = [:]
    private var pendingFound: [Diagnostic] = []
    /// One located error per case whose id an earlier case already has, naming both places.
    public private(set) var found: [Diagnostic] = []

    /// No cases yet.
    public init() {}

    /// Adds `cases`, the next ones of the suite file being read; ids compare as Swift strings do, by canonical
    /// equivalence (NFC and NFD spellings are one id).
    public mutating func add(_ cases: [ExpandedCase]) {
        for item in cases {
            guard let earlier = first[item.id] ?? pending[item.id] else {
                pending[item.id] = First(location: item.location, suite: item.suite, caseID: item.caseID)
                continue
            }
            pendingFound.append(Diagnostic(item.location, "case id '\(item.id)' is also the id of the case at "
                + "\(earlier.location) (suite '\(earlier.suite)', case '\(earlier.caseID)'); ids key the results, so "
                + "rename a suite or a case (ids are compared after Unicode normalisation, and '/' and '@' join suite, "
                + "case and variant)"))
        }
    }

    /// Ends the suite file being read: its ids and collisions count when `keep` (it loaded without errors).
    public mutating func endFile(keep: Bool) {
        if keep {
            // The first file kept (often the only one, however big) becomes the table without a copy.
            if first.isEmpty { swap(&first, &pending) } else { first.merge(pending) { earlier, _ in earlier } }
            found += pendingFound
        }
        pending = [:]
        pendingFound = []
    }

    /// The collisions among `cases`.
    public static func diagnostics(of cases: [ExpandedCase]) -> [Diagnostic] {
        var collisions = CaseIDCollisions()
        collisions.add(cases)
        collisions.endFile(keep: true)
        return collisions.found
    }
}
