import FMEvaluate
import FMResults

/// `--last-failed` / `--retry-errors`: run again some cases of an earlier results document.
public struct Rerun: Sendable {
    /// Which cases of the earlier run are run again, and what becomes of the rest.
    public enum Kind: Sendable {
        /// `--last-failed`: every case that failed the run (see `CaseResult.failsRun`), as a fresh run of
        /// just those cases.
        case lastFailed
        /// `--retry-errors`: the `error` cases, merged back into the earlier results (the others kept as they were).
        case retryErrors
    }

    /// Which cases are rerun.
    public var kind: Kind
    /// The earlier results file, for messages and `run.resumedFrom`.
    public var path: String
    /// The earlier results.
    public var results: RunResult

    /// A rerun of `results`, read from `path`.
    public init(kind: Kind, path: String, results: RunResult) {
        self.kind = kind
        self.path = path
        self.results = results
    }

    /// The flag that asked for this rerun, for messages.
    public var flag: String {
        switch kind {
        case .lastFailed: return "--last-failed"
        case .retryErrors: return "--retry-errors"
        }
    }

    /// Whether the earlier case `result` is run again.
    public func selects(_ result: CaseResult) -> Bool {
        switch kind {
        case .lastFailed:
            return !result.holdsRun
        case .retryErrors:
            switch result.status {
            case .error: return true
            case .passed, .failed, .flaky, .knownIssue: return false
            }
        }
    }

    /// What to say when no case of the earlier run qualifies (not an error: there is nothing to redo).
    var nothingToDo: String {
        let total = results.cases.count
        switch kind {
        case .lastFailed:
            return "--last-failed: no case failed or errored in \(path) (\(total) case\(total == 1 ? "" : "s"), every gate held); nothing to rerun"
        case .retryErrors:
            return "--retry-errors: no case ended in an error in \(path) (\(total) case\(total == 1 ? "" : "s")); nothing to retry"
        }
    }

    /// The error when the earlier run's cases to redo are all outside this run's selection.
    func noneSelected(_ wanted: [CaseResult], paths: [String]) -> String {
        let what = kind == .lastFailed ? "failed" : "error"
        let ids = wanted.prefix(5).map(\.id).joined(separator: ", ") + (wanted.count > 5 ? ", …" : "")
        return "\(flag): none of the \(wanted.count) \(what) case\(wanted.count == 1 ? "" : "s") of \(path) (\(ids)) is among the cases "
            + "selected from \(paths.joined(separator: " ")); give the suite paths that run used, and drop a --filter, --variant or --shard that excludes them"
    }

    /// The warning for cases to redo that the suites no longer define (renamed or deleted).
    func gone(_ missing: [CaseResult], paths: [String]) -> String {
        let ids = missing.prefix(5).map(\.id).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
        let fate = kind == .lastFailed ? "not rerun" : "kept as errors"
        return "\(flag): \(missing.count) case\(missing.count == 1 ? "" : "s") of \(path) \(missing.count == 1 ? "is" : "are") not in \(paths.joined(separator: " ")) any more and \(missing.count == 1 ? "is" : "are") \(fate): \(ids)"
    }
}
