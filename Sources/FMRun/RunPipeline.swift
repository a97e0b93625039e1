import Foundation
import FMCore
import FMEngines
import FMEvaluate
import FMSuite

/// Everything `fmeval run` was asked to do.
public struct RunRequest: Sendable {
    /// Suite files or folders.
    public var paths: [String]
    /// `--engine`: the engine for every case (nil: each suite's `engine:`).
    public var engine: String?
    /// `--model`: the model for every case (nil: each suite's `model:`).
    public var model: String?
    /// `--variant` names to run (empty: every variant).
    public var variants: [String] = []
    /// `--filter` expression.
    public var filter: String?
    /// `--shard I/N`.
    public var shard: Shard?
    /// Repeats, jobs, determinism check.
    public var options = RunnerOptions()
    /// `--cassette`: recordings for the replay engine.
    public var cassette: String?
    /// `--record`: write every engine call to this cassette.
    public var record: String?
    /// `--resume`: a results file or journal of an interrupted run.
    public var resume: String?
    /// Where the results document goes (its journal is `resultsPath + "l"`).
    public var resultsPath: String
    /// The command-line arguments, recorded in the run info.
    public var arguments: [String] = []

    /// A request to run `paths`, writing results to `resultsPath`.
    public init(paths: [String], resultsPath: String) {
        self.paths = paths
        self.resultsPath = resultsPath
    }
}

/// What `RunPipeline.plan` selected: the cases to run and those selected out.
public struct RunPlan {
    /// Cases to run, in suite order.
    public var cases: [ExpandedCase]
    /// Cases `--filter` selected out.
    public var skipped: [SkippedCase]
}

/// Load → validate → select → resolve engines → run → write results: `fmeval run` without the terminal.
public enum RunPipeline {
    /// Loads and validates the suites and selects cases; throws `RunnerError.invalidInput` listing every
    /// validation error (nothing runs when a suite is unusable).
    public static func plan(_ request: RunRequest) throws -> RunPlan {
        let loaded = SuiteLoader.load(paths: request.paths)
        if !loaded.diagnostics.isEmpty {
            let lines = loaded.diagnostics.map(\.description)
            throw RunnerError.invalidInput(lines.joined(separator: "\n") + "\n\(lines.count) error(s); nothing was run. Fix them (see 'fmeval validate').")
        }
        var cases = loaded.expandedCases
        if cases.isEmpty {
            throw RunnerError.invalidInput("no cases found in \(request.paths.joined(separator: " ")); give suite files or folders holding them")
        }
        if !request.variants.isEmpty {
            let known = Set(cases.compactMap(\.variant))
            for name in request.variants where !known.contains(name) {
                throw RunnerError.invalidInput("--variant \(name): no suite defines it (variants: \(known.sorted().joined(separator: ", ").nonEmpty ?? "none"))")
            }
            cases = cases.filter { $0.variant.map(request.variants.contains) ?? false }
        }
        if let shard = request.shard {
            cases = cases.filter { shard.contains(suite: $0.suite, variant: $0.variant, caseID: $0.caseID) }
        }
        var skipped: [SkippedCase] = []
        if let expression = request.filter {
            let filter = try CaseFilter(expression)
            skipped = cases.filter { !filter.matches($0) }.map {
                SkippedCase(id: $0.id, suite: $0.suite, caseID: $0.caseID, variant: $0.variant, tags: $0.tags,
                            reason: "selected out by --filter \(expression)")
            }
            cases = cases.filter(filter.matches)
        }
        return RunPlan(cases: cases, skipped: skipped)
    }

    /// Runs `plan` (resuming when asked), writes the results document, and returns it.
    /// `progress` sees every finished case (resumed ones are not reported again).
    public static func execute(_ request: RunRequest, plan: RunPlan, progress: Runner.Progress? = nil) throws -> RunResult {
        let engines = try EngineSet(request: request, cases: plan.cases)
        var carried: [CaseResult] = []
        var previous: RunInfo?
        if let resume = request.resume {
            let read = try ResultsJournal.read(path: resume)
            let wanted = Set(plan.cases.map(\.id))
            carried = read.cases.filter { wanted.contains($0.id) }
            previous = read.run
        }
        let done = Set(carried.map(\.id))
        let pending = plan.cases.filter { !done.contains($0.id) }
        let started = Date()
        var info = RunInfo(
            id: previous?.id ?? UUID().uuidString, startedAt: previous?.startedAt ?? timestamp(started),
            paths: request.paths, arguments: request.arguments, fingerprint: Fingerprint.current(engine: engines.primaryIdentity),
            variants: request.variants, filter: request.filter, shard: request.shard?.description,
            repeatOverride: request.options.repeatOverride, checkDeterminism: request.options.checkDeterminism,
            resumedFrom: request.resume)
        let journal = try ResultsJournal(path: ResultsJournal.path(for: request.resultsPath), run: info, carried: carried)
        let runner = Runner(options: request.options, provider: engines.provider(for:), environment: engines.environment(for:))
        let finished = try runner.run(pending, journal: journal, progress: progress)
        try engines.saveRecording()
        let all = carried + finished
        info.finishedAt = timestamp(Date())
        info.durationMs = Date().timeIntervalSince(started) * 1000
        let result = RunResult(run: info, cases: all, skipped: plan.skipped,
                               classifications: Runner.classifications(of: plan.cases, results: all))
        try write(result, to: request.resultsPath, caseTexts: journal.caseTexts)
        journal.finish()
        return result
    }

    /// Writes `result` atomically: one line per top-level key and one line per case. `caseTexts`, when
    /// given, is the JSON text of each of `result.cases` already written to the journal (reused, not re-encoded).
    public static func write(_ result: RunResult, to path: String, caseTexts: [String]? = nil) throws {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let cases = try caseTexts ?? result.cases.map { try ContentEncoder.jsonText($0) }
            var text = "{\n\"version\": \(result.version),\n\"run\": " + (try ContentEncoder.jsonText(result.run))
            text += ",\n\"summary\": " + (try ContentEncoder.jsonText(result.summary))
            text += ",\n\"cases\": [\n" + cases.joined(separator: ",\n") + "\n]"
            text += ",\n\"skipped\": " + (try ContentEncoder.jsonText(result.skipped))
            text += ",\n\"classifications\": " + (try ContentEncoder.jsonText(result.classifications)) + "\n}\n"
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw RunnerError.infrastructure("cannot write results to \(path): \(error.localizedDescription)")
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension String {
    /// nil for the empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
