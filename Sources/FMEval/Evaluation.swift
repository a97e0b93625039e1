import Foundation
import FMCore
import FMEngines
import FMResults
import FMRun

/// How a run goes: the library's counterpart of `fmeval run`'s flags.
public struct EvalOptions: Sendable {
    /// Attempts per case, replacing each case's `repeat` (`--repeat`).
    public var repeatCount: Int?
    /// Cases run in parallel, each in its own session (`--jobs`), at least 1.
    public var jobs: Int
    /// Which cases run (`--filter`): `tag:NAME`, `suite:NAME`, `id:GLOB`, a leading `!` excludes.
    public var filter: String?
    /// Only these variants (`--variant`); empty: all.
    public var variants: [String]
    /// Rerun each greedy attempt and flag divergence (`--check-determinism`).
    public var checkDeterminism: Bool
    /// Where the results document is written (its journal beside it, with an `l` appended);
    /// nil: `results.json` in a new temporary folder.
    public var resultsPath: String?
    /// A results file to compare the run with (`--baseline FILE`): `EvalResult.regressions` and
    /// `holdsAgainstBaseline` then read it; a missing or invalid file is `invalidInput` before anything runs.
    public var baselinePath: String?

    /// Options as `fmeval run` has them by default.
    public init(repeatCount: Int? = nil, jobs: Int = 1, filter: String? = nil, variants: [String] = [],
                checkDeterminism: Bool = false, resultsPath: String? = nil, baselinePath: String? = nil) {
        self.repeatCount = repeatCount
        self.jobs = jobs
        self.filter = filter
        self.variants = variants
        self.checkDeterminism = checkDeterminism
        self.resultsPath = resultsPath
        self.baselinePath = baselinePath
    }
}

/// Runs suites the way `fmeval run` does (FMRun's pipeline: validation, engine set-up, runner, results file).
public enum Evaluation {
    /// Runs every case of `suite` on `engine` (nil: each suite's `engine:`, else `embedded`) and returns
    /// the results; `progress` sees each case as it finishes. A model failing a gate is not an error:
    /// it is in the results. Throws `EvalError` when the run cannot happen: `invalidInput` for a bad
    /// engine setting, filter or variant (nothing runs), `infrastructure` for an engine that cannot
    /// start or a results file that cannot be written.
    public static func run(_ suite: EvalSuite, on engine: EvalEngine? = nil, options: EvalOptions = EvalOptions(),
                           progress: (@Sendable (CaseResult) -> Void)? = nil) throws -> EvalResult {
        guard options.jobs >= 1 else { throw EvalError(.invalidInput, "EvalOptions.jobs must be at least 1, got \(options.jobs)") }
        if let count = options.repeatCount, count < 1 {
            throw EvalError(.invalidInput, "EvalOptions.repeatCount must be at least 1, got \(count)")
        }
        let baseline = try options.baselinePath.map { path in
            do {
                return try ResultsFile.load(path)
            } catch let error as Fault {
                throw error.prefixed("EvalOptions.baselinePath: ")
            }
        }
        let path = try options.resultsPath ?? temporaryResultsPath()
        var request = RunRequest(paths: suite.loaded.files, resultsPath: path)
        request.loaded = suite.loaded
        switch engine?.source {
        case .registered(let name, let engineOptions)?:
            request.engine = name
            request.engineOptions = engineOptions
        case .provided(let provider)?:
            request.provider = provider
        case nil:
            break
        }
        request.variants = options.variants
        request.filter = options.filter
        request.options = RunnerOptions(repeatOverride: options.repeatCount, jobs: options.jobs, checkDeterminism: options.checkDeterminism)
        request.arguments = ["FMEval"]
        let plan = try RunPipeline.plan(request)
        var finished: Runner.Progress?
        if let progress { finished = { result, _, _ in progress(result) } }
        let result = try RunPipeline.execute(request, plan: plan, progress: finished)
        return EvalResult(results: result, resultsPath: path, baseline: baseline)
    }

    /// `run(_:on:options:progress:)` for async code: the run happens on a thread of its own, so a test's
    /// cooperative threads are not held while the model generates.
    public static func run(_ suite: EvalSuite, on engine: EvalEngine? = nil, options: EvalOptions = EvalOptions(),
                           progress: (@Sendable (CaseResult) -> Void)? = nil) async throws -> EvalResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(suite, on: engine, options: options, progress: progress) })
            }
        }
    }

    /// `results.json` in a new folder under the system's temporary directory.
    static func temporaryResultsPath() throws -> String {
        let folder = FilePaths.join(FileManager.default.temporaryDirectory.path, "fmeval-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw EvalError(.infrastructure, "cannot create a folder for the results at \(folder): \(error.localizedDescription); set EvalOptions.resultsPath")
        }
        return FilePaths.join(folder, "results.json")
    }
}
