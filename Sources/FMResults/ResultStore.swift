/// Where finished runs are kept: the results JSON file (`ResultsFileStore`), and any other store of
/// runs (a run-history database) that reports and baselines read from.
public protocol ResultStore: AnyObject {
    /// Where the store lives, for messages (a file path).
    var location: String { get }
    /// Saves a finished run: a complete run, a resumed one, or merged shards. Throws `Fault`
    /// (infrastructure when the store cannot be written).
    func save(_ run: RunResult) throws
}

/// The results JSON file (docs/results-format.md) as a store.
public final class ResultsFileStore: ResultStore {
    /// The results file's path.
    public let location: String
    private let caseTexts: [String]?

    /// A store writing `path`; `caseTexts`, when given, is the already-encoded JSON of the saved run's
    /// cases, in order (the journal's lines), reused instead of encoding them again.
    public init(path: String, caseTexts: [String]? = nil) {
        self.location = path
        self.caseTexts = caseTexts
    }

    /// Writes `run` atomically (see `ResultsFile.write`).
    public func save(_ run: RunResult) throws {
        try ResultsFile.write(run, to: location, caseTexts: caseTexts)
    }
}
