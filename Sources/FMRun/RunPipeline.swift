import Foundation
import FMCore
import FMResults
import FMEngines
import FMEvaluate
import FMSuite

/// Everything `fmeval run` was asked to do.
public struct RunRequest: Sendable {
    /// Suite files or folders (empty: those of the `rerun` results, else `suites`).
    public var paths: [String]
    /// `--engine`: the engine for every case (nil: each suite's `engine:`).
    public var engine: String?
    /// `--model`: the model for every case (nil: each suite's `model:`).
    public var model: String?
    /// `--variant` names to run (empty: every variant).
    public var variants: [String] = []
    /// `--filter` expression.
    public var filter: String?
    /// `--shard I/N` (or `--shard auto`'s).
    public var shard: Shard?
    /// `--shard-balance`: how the shards split the cases.
    public var shardBalance = ShardBalance.hash
    /// For `--shard auto`: the scheduler and variables the shard was read from.
    public var shardSource: String?
    /// Repeats, jobs, determinism check.
    public var options = RunnerOptions()
    /// `--cassette`: recordings for the replay engine.
    public var cassette: String?
    /// `--engine-option KEY=VALUE`s: engine options laid over the suites' (see `EngineResolution`).
    public var engineOptions: [String: GeneratedContent] = [:]
    /// `--record`: write every engine call to this cassette.
    public var record: String?
    /// `--cache`: answer engine calls from this cassette, running and adding the ones it lacks.
    public var cache: String?
    /// `--resume`: a results file or journal of an interrupted run.
    public var resume: String?
    /// `--last-failed` / `--retry-errors`: the earlier results whose cases are run again.
    public var rerun: Rerun?
    /// Where the results document goes (its journal is `resultsPath + "l"`).
    public var resultsPath: String
    /// The command-line arguments, recorded in the run info.
    public var arguments: [String] = []
    /// `--fresh`: replace the journal of an interrupted run instead of refusing to start.
    public var fresh = false
    /// `--keep-going`: score the valid recorded transcripts when some are invalid (those become `error` cases).
    public var keepGoing = false
    /// `--device` and `--guide-enforcement`: settings laid over every case's own (`Suite.overrides`) when
    /// the suites are loaded from `paths`.
    public var overrides = OptionsPatch()
    /// Suites already loaded (the FMEval library's in-code suites); nil: load them from `paths`.
    public var loaded: SuiteLoadResult?
    /// An engine given in code (the FMEval library): every case runs on it, whatever its `engine:` says.
    public var provider: EngineProvider?
    /// Probe each server-backed engine of grammar-channel cases for schema enforcement before they run
    /// (`--no-probe`: false; see `ConstraintProbes`).
    public var probeConstraints = true

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
    /// The suite paths the run loads (the request's, or the rerun results' when none were given).
    public var paths: [String]
    /// The runner options (a `--retry-errors` run keeps the earlier run's repeat and determinism check).
    public var options: RunnerOptions
    /// Notes for standard output before the run (an empty shard, engine flags some cases ignore).
    public var notes: [RunNote] = []
    /// Lines for standard error before the run: rerun cases that the suites no longer define.
    public var warnings: [String] = []
    /// Set when a rerun finds nothing to redo (not an error): say it, run nothing, exit 0.
    public var nothingToRerun: String?
    /// How the shard's cases were chosen, for the results; nil when the run is not sharded.
    public var shardAssignment: ShardAssignmentInfo?
    /// Every case the suites define, for the classification of carried results.
    var known: [ExpandedCase] = []
    /// Results kept from the earlier run (`--retry-errors`).
    var carried: [CaseResult] = []
}

/// Load → validate → select → resolve engines → run → write results: `fmeval run` without the terminal.
public enum RunPipeline {
    /// Loads and validates the suites and selects cases; throws `Fault.invalidInput` listing every
    /// validation error (nothing runs when a suite is unusable), and when no case is selected by mistake:
    /// a folder without suites, a `--filter` matching nothing, rerun cases outside the selection.
    public static func plan(_ request: RunRequest) throws -> RunPlan {
        let earlierPaths = request.rerun?.results.run.paths ?? []
        let paths = !request.paths.isEmpty ? request.paths
            : !earlierPaths.isEmpty ? earlierPaths : try SuiteDiscovery.defaultPaths(command: "run")
        let loaded = request.loaded ?? SuiteLoader.load(paths: paths, overrides: request.overrides)
        let transcriptProblems = RecordedCases.problems(of: loaded.expandedCases)
        let diagnostics = loaded.diagnostics + (request.loaded == nil ? CaseSelection.foldersWithoutSuites(paths) : [])
            + (request.keepGoing ? [] : transcriptProblems)
        let engineProblems = diagnostics.isEmpty && request.provider == nil
            ? EngineResolution.problems(for: loaded.expandedCases, request: request) : []
        if !diagnostics.isEmpty || !engineProblems.isEmpty {
            let lines = diagnostics.map(\.description) + engineProblems
            let hint = transcriptProblems.isEmpty || request.keepGoing ? "" : "\nTo score the valid transcripts anyway (the invalid ones listed as errors), add --keep-going."
            throw Fault.invalidInput(lines.joined(separator: "\n") + "\n\(lines.count) error(s); nothing was run. Fix them (see 'fmeval validate')." + hint)
        }
        let known = loaded.expandedCases
        var cases = known
        if cases.isEmpty {
            throw Fault.invalidInput("no cases found in \(paths.joined(separator: " ")); give suite files or folders holding them")
        }
        if !request.variants.isEmpty {
            let names = Set(cases.compactMap(\.variant))
            for name in request.variants where !names.contains(name) {
                throw Fault.invalidInput("--variant \(name): no suite defines it (variants: \(names.sorted().joined(separator: ", ").nonEmpty ?? "none"))")
            }
            cases = cases.filter { $0.variant.map(request.variants.contains) ?? false }
        }
        var plan = RunPlan(cases: [], skipped: [], paths: paths, options: request.options, known: known)
        plan.warnings += loaded.warnings.map { "\($0.location): \($0.message)" }
        var filteredOut: [ExpandedCase] = []
        if let expression = request.filter {
            let filter = try CaseFilter(expression)
            let matched = cases.filter(filter.matches)
            if matched.isEmpty {
                throw Fault.invalidInput(CaseSelection.noMatch(filter, candidates: cases, request: request, paths: paths))
            }
            filteredOut = cases.filter { !filter.matches($0) }
            cases = matched
        }
        if let rerun = request.rerun {
            let wanted = rerun.results.cases.filter(rerun.selects)
            if wanted.isEmpty {
                plan.nothingToRerun = rerun.nothingToDo
                return plan
            }
            let knownIDs = Set(known.map(\.id)), wantedIDs = Set(wanted.map(\.id))
            let missing = wanted.filter { !knownIDs.contains($0.id) }
            if !missing.isEmpty { plan.warnings.append(rerun.gone(missing, paths: paths)) }
            cases = cases.filter { wantedIDs.contains($0.id) }
            if cases.isEmpty { throw Fault.invalidInput(rerun.noneSelected(wanted, paths: paths)) }
        }
        if let shard = request.shard {
            let selected = cases.count
            let assignment = ShardAssignment(cases: cases.map { ($0.suite, $0.variant, $0.caseID) }, count: shard.count,
                                             balance: request.shardBalance, source: request.shardSource)
            cases = cases.filter {
                assignment.shard(of: $0.suite, variant: $0.variant, caseID: $0.caseID) == shard.index
            }
            filteredOut = filteredOut.filter { shard.contains(suite: $0.suite, variant: $0.variant, caseID: $0.caseID) }
            plan.shardAssignment = assignment.info
            if let note = CaseSelection.shardNote(shard, assignment: assignment, running: cases.count, of: selected) {
                plan.notes.append(note)
            }
            if cases.isEmpty { plan.notes.append(CaseSelection.emptyShard(shard, selected: selected)) }
        }
        plan.cases = cases
        try checkLimits(cases, repeatOverride: request.options.repeatOverride)
        if request.keepGoing { plan.warnings += RecordedCases.problems(of: cases).map { "\($0.description) (--keep-going: listed as an error)" } }
        if let note = RecordedCases.flagNote(cases, request: request) { plan.notes.append(note) }
        plan.notes += ScriptedStandIns.flagNotes(cases, request: request)
        if let rerun = request.rerun, rerun.kind == .retryErrors {
            let retried = Set(cases.map(\.id))
            plan.carried = rerun.results.cases.filter { !retried.contains($0.id) }
            plan.skipped = rerun.results.skipped
            plan.options.repeatOverride = plan.options.repeatOverride ?? rerun.results.run.repeatOverride
            plan.options.checkDeterminism = plan.options.checkDeterminism || rerun.results.run.checkDeterminism
        }
        if let expression = request.filter, request.rerun?.kind != .retryErrors {
            plan.skipped += filteredOut.map {
                SkippedCase(id: $0.id, suite: $0.suite, caseID: $0.caseID, variant: $0.variant, tags: $0.tags,
                            cause: .filteredOut(expression: expression))
            }
        }
        return plan
    }

    /// Throws invalid input when the selected cases pass `RunLimits` (cases, attempts of one case, attempts in all).
    static func checkLimits(_ cases: [ExpandedCase], repeatOverride: Int?) throws {
        guard cases.count <= RunLimits.maximumCases else {
            throw Fault.invalidInput("\(cases.count) cases are selected, over fmeval's cap of \(RunLimits.maximumCases) "
                + "per run; split the suite or select fewer with --filter or --shard")
        }
        var total = 0
        for item in cases {
            let attempts = item.reproduce?.trials ?? repeatOverride ?? item.repeatCount
            guard attempts <= RunLimits.maximumRepeat else {
                throw Fault.invalidInput("\(item.location): case '\(item.id)' would run \(attempts) attempts, over fmeval's "
                    + "cap of \(RunLimits.maximumRepeat) per case; use fewer seeds or paraphrases")
            }
            total += attempts
        }
        guard total <= RunLimits.maximumAttempts else {
            throw Fault.invalidInput("the selected cases would run \(total) attempts, over fmeval's cap of "
                + "\(RunLimits.maximumAttempts) per run; lower --repeat or select fewer cases")
        }
    }

    /// Runs `plan` (resuming when asked), writes the results document, and returns it.
    /// `started` sees each case as it starts; `progress` every finished case (resumed and carried ones
    /// are not reported again); `notice` lines worth telling the user (which earlier results are not
    /// kept, and why). With `--fail-fast`, the cases left unrun are listed as skipped. After the results
    /// file, the run is saved to each of `stores` (the run history); a store that fails is a `notice`
    /// warning naming it, never a failed run: the results file already holds everything.
    public static func execute(_ request: RunRequest, plan: RunPlan, progress: Runner.Progress? = nil,
                               started: Runner.Started? = nil, notice: (String) -> Void = { _ in },
                               stores: [any ResultStore] = []) throws -> RunResult {
        let lock = try OutputLock.acquire(forResults: request.resultsPath)
        defer { withExtendedLifetime(lock) {} }
        try checkNoInterruptedJournal(request)
        var carried = plan.carried
        var previous: RunInfo?
        if let resume = request.resume {
            let read = try Fault.fromResults { try ResultsJournal.readForResume(path: resume) }
            if let note = read.note { notice(note) }
            let wanted = Set(plan.cases.map(\.id))
            carried = read.cases.filter { wanted.contains($0.id) }
            previous = read.run
        }
        let byID = Dictionary(plan.known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let planned = Set(plan.cases.map(\.id))
        let carriedCases = carried.compactMap { byID[$0.id] }.filter { !planned.contains($0.id) }
        let engines = try EngineSet(request: request, cases: plan.cases + carriedCases)
        if let rerun = request.rerun, rerun.kind == .retryErrors {
            try checkSameEngines(rerun, plan: plan, engines: engines)
        }
        var stale: [StaleResult] = []
        carried = carried.filter { result in
            guard let item = byID[result.id],
                  let reason = result.staleness(for: item, engine: engines.provider(for: item).identity) else { return true }
            stale.append(StaleResult(id: result.id, reason: reason))
            return false
        }
        if !stale.isEmpty {
            notice(staleNotice(stale, kept: carried.count, flag: request.resume != nil ? "--resume" : "--retry-errors",
                               file: request.resume ?? request.rerun?.path ?? ""))
        }
        let done = Set(carried.map(\.id))
        let restarted = Set(stale.map(\.id))
        let pending = plan.cases.filter { !done.contains($0.id) } + carriedCases.filter { restarted.contains($0.id) }
        if request.probeConstraints { try ConstraintProbes.check(pending, engines: engines) }
        let startTime = Date()
        var info = RunInfo(
            id: previous?.id ?? UUID().uuidString, startedAt: previous?.startedAt ?? timestamp(startTime),
            paths: plan.paths, arguments: request.arguments, fingerprint: Fingerprint.current(engine: engines.primaryIdentity),
            variants: request.variants, filter: request.filter, shard: request.shard?.description,
            repeatOverride: plan.options.repeatOverride, checkDeterminism: plan.options.checkDeterminism,
            resumedFrom: request.resume)
        info.fingerprint.recordedTranscripts = RecordedTranscriptProvider.sources(of: plan.cases + carriedCases)
        info.shardAssignment = plan.shardAssignment
        var earlierDuration = 0.0
        if let rerun = request.rerun, rerun.kind == .retryErrors {
            info = rerun.results.run
            info.resumedFrom = rerun.path
            earlierDuration = info.durationMs ?? 0
            info.finishedAt = nil
            info.durationMs = nil
        }
        let journal = try Fault.fromResults {
            try ResultsJournal(path: ResultsJournal.path(for: request.resultsPath), run: info, carried: carried)
        }
        let runner = Runner(options: plan.options, provider: engines.provider(for:), environment: engines.environment(for:))
        let finished = try runner.run(pending, journal: journal, progress: progress, started: started)
        try engines.saveRecording()
        info.cache = engines.cacheUse
        if let details = engines.primaryDetails { info.fingerprint.engineDetails = details }
        let all = carried + finished
        info.finishedAt = timestamp(Date())
        info.durationMs = earlierDuration + Date().timeIntervalSince(startTime) * 1000
        let result = RunResult(run: info, cases: all, skipped: plan.skipped + notRun(pending, finished: finished),
                               classifications: Runner.classifications(of: plan.known, results: all))
        let store = ResultsFileStore(path: request.resultsPath, caseTexts: journal.caseTexts(for: all))
        do {
            try store.save(result)
        } catch let error as Fault {
            throw Fault.infrastructure("\(error.message); every finished case is kept in the journal \(journal.path): "
                + "fix the path and finish with --resume \(journal.path)")
        }
        journal.finish()
        stores.save(result, resultsPath: request.resultsPath).warnings.forEach(notice)
        return result
    }

    /// Refuses to replace the journal of an interrupted run unless this run resumes from it or `fresh`.
    static func checkNoInterruptedJournal(_ request: RunRequest) throws {
        let journal = ResultsJournal.path(for: request.resultsPath)
        guard !request.fresh, FileManager.default.fileExists(atPath: journal) else { return }
        if let resume = request.resume, resume == journal || resume == request.resultsPath { return }
        let count = (try? ResultsJournal.read(path: journal).cases.count).map { " (\($0) finished case\($0 == 1 ? "" : "s"))" } ?? ""
        throw Fault.invalidInput("\(journal) is the journal of an interrupted run\(count); finish that run with "
            + "--resume \(request.resultsPath), or pass --fresh to start over and replace it; nothing was run")
    }

    /// A diagnostic for each folder in `paths` that holds no suite file (`validate` and `run` refuse them).
    public static func foldersWithoutSuites(_ paths: [String]) -> [Diagnostic] {
        CaseSelection.foldersWithoutSuites(paths)
    }

    /// The cases of `pending` that `--fail-fast` left unrun, as skipped entries naming the case that stopped it.
    static func notRun(_ pending: [ExpandedCase], finished: [CaseResult]) -> [SkippedCase] {
        guard finished.count < pending.count, let trigger = finished.first(where: { !$0.holdsRun }) else { return [] }
        let ran = Set(finished.map(\.id))
        return pending.filter { !ran.contains($0.id) }.map {
            SkippedCase(id: $0.id, suite: $0.suite, caseID: $0.caseID, variant: $0.variant, tags: $0.tags,
                        cause: .failFast(trigger: trigger.id))
        }
    }

    /// The line saying which earlier results are run again and why (at most five named).
    static func staleNotice(_ stale: [StaleResult], kept: Int, flag: String, file: String) -> String {
        let named = stale.prefix(5).map { "\($0.id) (\($0.reason))" }.joined(separator: "; ")
        let more = stale.count > 5 ? "; and \(stale.count - 5) more" : ""
        return "\(flag): \(stale.count) of the \(stale.count + kept) finished case\(stale.count + kept == 1 ? "" : "s") in \(file) "
            + "\(stale.count == 1 ? "is" : "are") run again, not kept: \(named)\(more)"
    }

    /// Refuses to retry a case on another engine or model than the one its earlier result came from,
    /// since the merged results would mix two configurations.
    static func checkSameEngines(_ rerun: Rerun, plan: RunPlan, engines: EngineSet) throws {
        let earlier = Dictionary(rerun.results.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for item in plan.cases {
            guard let before = earlier[item.id]?.engine else { continue }
            let now = engines.provider(for: item).identity
            let hashesAgree = before.modelHash == nil || now.modelHash == nil || before.modelHash == now.modelHash
            guard before.name != now.name || before.model != now.model || !hashesAgree else { continue }
            throw Fault.invalidInput("--retry-errors: \(rerun.path) ran \(item.id) on \(before) but this run would use \(now); "
                + "retry with the --engine and --model of that run so the merged results hold one configuration")
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
