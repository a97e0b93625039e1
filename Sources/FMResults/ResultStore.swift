import FMCore

/// Where finished runs are kept and read back: the results JSON file (`ResultsFileStore`), and any other
/// store of runs (a run-history database) that reports and baselines read from.
public protocol ResultStore: AnyObject {
    /// Where the store lives, for messages (a file path).
    var location: String { get }
    /// Saves a finished run: a complete run, a resumed one, or merged shards. Throws `Fault`
    /// (infrastructure when the store cannot be written).
    func save(_ run: RunResult) throws
    /// A saved run as results, by the store's name for it (`last`, a run id, or what else the store
    /// names runs by). Throws `Fault`: invalid input when there is no such run, infrastructure when the
    /// store cannot be read.
    func loadRun(named name: String) throws -> RunResult
}

extension Array where Element == any ResultStore {
    /// Saves `run` to every store, one failing not stopping the others: the locations saved to, and a
    /// warning naming each failure (the run's results are already in `resultsPath`).
    public func save(_ run: RunResult, resultsPath: String) -> (saved: [String], warnings: [String]) {
        var saved: [String] = []
        var warnings: [String] = []
        for store in self {
            do {
                try store.save(run)
                saved.append(store.location)
            } catch {
                warnings.append("warning: \(error); the run is not in it, but its results are in \(resultsPath)")
            }
        }
        return (saved, warnings)
    }
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

    /// The file's one run, named `last` or by its id.
    public func loadRun(named name: String) throws -> RunResult {
        let run = try ResultsFile.load(location)
        guard name == "last" || name == run.run.id else {
            throw Fault.invalidInput("\(location) holds one run, \(run.run.id), not '\(name)'; "
                + "name it 'last' or by that id")
        }
        return run
    }
}
