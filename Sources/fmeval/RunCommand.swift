import Foundation
import FMCore
import FMEngines
import FMResults
import FMReport
import FMRun
import FMSuite

/// `fmeval run`: run suites on an engine, score every attempt, write versioned JSON results.
struct RunCommand: Command {
    static let path = ["run"]
    static let summary = "Run suites on an engine and write results (JSON; exit 1 when a gate fails)"
    static let help = """
    \(usage.line)

    Loads suites (files or folders; default: suites/ here or in the nearest folder above), validates them
    (any error stops the run with exit 2 before anything executes), runs every case × variant × repeat
    through a session on the engine, scores each attempt with the case's expectations, and writes the
    results document (docs/results-format.md).
    Each finished case is appended to FILE.jsonl at once, so a crash or Ctrl-C loses nothing finished; that
    journal is kept until a run resumes from it (--resume) or starts over (--fresh). The output folder is
    locked while a run writes it: a second run on it names the first one's pid and exits 2.
    The finished run is also appended to the run history (--history; docs/history.md): one that cannot be
    written is a warning, and the results, reports and exit code are as without it.
    Every output path (results, \(ReportFlags.flagList(providing: [.results])), \(record.name), \(cache.name)) is
    checked before anything runs.
    A run never passes by selecting nothing: a folder without suites, or a --filter that matches no case,
    is an error (exit 2) that names the closest case ids. A --shard that holds none of the selected cases
    says so and exits 0 (normal when a CI matrix has more shards than cases).

    OPTIONS:
    \(usage.flags.list())

    Short flags take a value as the next word or attached (-j 4, -j4, -k 'tag:forum'); they do not combine
    (-x -j4, not -xj4). With --last-failed or --retry-errors and no PATH, the suite paths of FILE's run are used.

    On a terminal, a progress line (done/total, counts, the clock and the case running longest) is redrawn
    at least once a second, and each failing case is printed above it, cut to the terminal's width
    (COLUMNS, else the terminal's, else 100). Logs, pipes and CI=true get one whole line per case instead.

    A case marked `knownIssue` in its suite that still fails is reported as a known issue and does not fail
    the run; one that passes again fails it ("known issue no longer reproduces").

    Exit codes: 0 every gate holds (known issues may still reproduce) · 1 a gate failed, a known issue no
    longer reproduces, or a rerun diverged · 2 invalid input (also: nothing selected, an unwritable output
    path) · 3 an engine or infrastructure error (a case in `error`, an evaluator that could not run, an engine
    that cannot start, a corrupted cached model).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "run", flags: usage.flags)
        let engineFlags = try EngineFlags.parse(args)
        let engine = engineFlags.name
        let model = args.value(Self.model)
        let variants = args.values(Self.variant)
        let repeatCount = try args.int(Self.repeatCount, minimum: 1, maximum: RunLimits.maximumRepeat)
        let jobs = try args.int(Self.jobs, minimum: 1) ?? 1
        let filter = args.value(Self.filter)
        let out = args.value(Self.out) ?? "reports"
        let json = args.value(Self.json)
        let record = args.value(Self.record)
        let cassette = args.value(Self.cassette)
        let cache = args.value(Self.cache)
        let resume = args.value(Self.resume)
        let lastFailed = args.optionalValue(Self.lastFailed)
        let retryErrors = args.value(Self.retryErrors)
        let failFast = args.flag(Self.failFast)
        let checkDeterminism = args.flag(Self.checkDeterminism)
        let keepGoing = args.flag(Self.keepGoing)
        let noProbe = args.flag(Self.noProbe)
        let fresh = args.flag(Self.fresh)
        let throughput = try ThroughputFlags.parse(args, command: "run")
        let overrides = try SettingOverrideFlags.parse(args, command: "run")
        let transcriptDialect = try args.value(Self.transcriptDialect).map { name in
            guard let dialect = Transcript.Dialect(rawValue: name) else {
                throw Fault.invalidInput(
                    "run: --transcript-dialect must be 26 or 27 (Foundation Models 26 or 27), not '\(name)'")
            }
            return dialect
        }
        let color = try colorChoice(args.value(Self.color))
        var reports = try ReportFlags.parse(args)
        let history = try HistoryFlags.parse(args, command: "run")
        let paths = args.positionals
        let cassetteFlags = [(Self.record, record), (Self.cassette, cassette), (Self.cache, cache)]
            .filter { $0.1 != nil }.map(\.0.name)
        if cassetteFlags.count > 1 {
            throw Fault.invalidInput("run: \(cassetteFlags.joined(separator: " and ")) exclude each other: --record "
                + "records, --cassette replays fail-closed, --cache replays and records the misses; pick one")
        }
        if cassette != nil, let engine, engine != EngineRegistry.cassetteEngine {
            throw Fault.invalidInput("run: --cassette is for --engine \(EngineRegistry.cassetteEngine), not --engine \(engine)")
        }
        let pathFlags = [Self.out, Self.json, Self.record, Self.cassette, Self.cache, Self.resume, Self.retryErrors,
                         Self.model]
        if let empty = pathFlags.first(where: { args.value($0)?.isEmpty == true }) {
            throw Fault.invalidInput("run: \(empty.name) was given an empty path; give a path (nothing was run)")
        }
        let continuations = [Self.resume, Self.lastFailed, Self.retryErrors, Self.fresh]
            .filter(args.flag).map(\.name)
        if continuations.count > 1 {
            throw Fault.invalidInput("run: \(continuations.joined(separator: " and ")) exclude each other; pick one")
        }

        let defaultResults = FilePaths.join(out, "results.json")
        var request = RunRequest(paths: paths, resultsPath: json ?? retryErrors ?? defaultResults)
        request.engine = engine ?? (cassette != nil ? EngineRegistry.cassetteEngine : nil)
        request.model = model
        request.engineOptions = engineFlags.options
        request.variants = variants
        request.overrides = overrides
        request.filter = filter
        request.cassette = cassette
        request.record = record
        request.cache = cache
        request.resume = resume
        request.arguments = arguments
        request.keepGoing = keepGoing
        request.probeConstraints = !noProbe
        request.fresh = fresh
        try ShardFlags.apply(args, to: &request, history: history)
        request.options = RunnerOptions(repeatOverride: repeatCount, jobs: jobs, checkDeterminism: checkDeterminism, failFast: failFast)
        throughput.apply(to: &request.options)
        request.options.transcriptDialect = transcriptDialect
        if lastFailed == .some(nil), let file = paths.first(where: isResultsFile) {
            throw Fault.invalidInput("run: \(file) is a results file, not a suite; attach it to the flag: --last-failed=\(file)")
        }
        if let lastFailed {
            request.rerun = try loadRerun(.lastFailed, path: lastFailed ?? request.resultsPath, isDefault: lastFailed == nil)
        } else if let retryErrors {
            request.rerun = try loadRerun(.retryErrors, path: retryErrors, isDefault: false)
        }

        let plan = try RunPipeline.plan(request)
        for warning in plan.warnings { printError("fmeval: warning: \(warning)") }
        if let nothing = plan.nothingToRerun {
            print(nothing)
            return ExitStatus.ok
        }
        let historyFile = history.file(resultsPath: request.resultsPath)
        let baseline = try reports.loadBaseline(historyFile: historyFile)
        let resultsFlag = json.map { "--json \($0)" } ?? retryErrors.map { "--retry-errors \($0)" } ?? "--out \(out)"
        let reportOutputs = reports.outputs.map { ($0.path, "\($0.format.flag) \($0.path)") }
        let outputs = [(request.resultsPath, resultsFlag)] + reportOutputs
            + [(record, Self.record), (cache, Self.cache)].compactMap { path, flag in
                path.map { ($0, "\(flag.name) \($0)") }
            }
        // Every empty path is refused before any folder is made for the others.
        for (path, flag) in outputs where path.isEmpty { try OutputPaths.check(path, flag: flag) }
        for (path, flag) in outputs { try OutputPaths.check(path, flag: flag) }
        for note in plan.notes { print(note.text) }
        print(header(plan, request: request))
        let environment = ProcessInfo.processInfo.environment
        let mode = LiveProgress.Mode.detect(environment: environment, isTerminal: Terminal.isTerminal)
        reports.style = Terminal.style(choice: color, mode: mode, environment: environment)
        let progress = LiveProgress(
            mode: mode, style: reports.style, verbosity: reports.verbosity,
            judge: GateJudge(baseline: baseline, failOnRegression: reports.failOnRegression,
                             regressionsFrom: reports.regressionsFrom), write: Terminal.write)
        let result: RunResult
        let store = history.store(resultsPath: request.resultsPath)
        do {
            result = try RunPipeline.execute(request, plan: plan, progress: progress.caseFinished,
                                             started: { progress.caseStarted($0.id, total: $1) },
                                             notice: { printError("fmeval: \($0)") }, stores: store.map { [$0] } ?? [])
        } catch {
            progress.finish()
            throw error
        }
        progress.finish()
        let verdict = try reports.finish(
            result, baseline: baseline, history: history.context(for: result, store: store))
        if failFast { printNotRun(result, resultsPath: request.resultsPath) }
        if reports.verbosity > .quiet {
            if let cache = result.run.cache {
                print("cache: \(cache.path) (\(cache.callsFromCache) calls from it, \(cache.callsRecorded) recorded)")
            }
            print("results: \(request.resultsPath)")
        }
        print(reports.closing(verdict))
        let invalid = RecordedCases.problems(of: plan.cases)
        if !invalid.isEmpty {
            printError("fmeval: \(invalid.count) recorded transcript\(invalid.count == 1 ? " is" : "s are") not valid FoundationModels.Transcript JSON "
                + "(listed as errors); exit 2 until \(invalid.count == 1 ? "it is" : "they are") fixed")
            return ExitStatus.invalidInput
        }
        return verdict.exitCode
    }

    /// Whether `path` is an fmeval results document (given after `--last-failed` without the `=`).
    static func isResultsFile(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".json") && (try? ResultsFile.load(path)) != nil
    }

    /// `--color WHEN` as a choice (default auto); anything else is an exit-2 error naming the choices.
    static func colorChoice(_ text: String?) throws -> TerminalStyle.Choice {
        guard let text else { return .auto }
        guard let choice = TerminalStyle.Choice(rawValue: text) else {
            let names = TerminalStyle.Choice.allCases.map(\.rawValue)
            var message = "run: --color expects auto, always or never, got '\(text)'"
            if let guess = Suggestion.closest(to: text, in: names) { message += " (did you mean \(guess)?)" }
            throw Fault.invalidInput(message)
        }
        return choice
    }

    /// Reads the earlier results of `--last-failed` / `--retry-errors`; a missing default file gets its own hint.
    static func loadRerun(_ kind: Rerun.Kind, path: String, isDefault: Bool) throws -> Rerun {
        if isDefault && !FileManager.default.fileExists(atPath: path) {
            throw Fault.invalidInput("run: --last-failed: no earlier results at \(path); run the suites first, or name the file with --last-failed=FILE"
                + (FileManager.default.fileExists(atPath: path + "l") ? " (\(path)l is the journal of an interrupted run: finish it with --resume \(path)l)" : ""))
        }
        let flag = kind == .lastFailed ? "--last-failed" : "--retry-errors"
        return Rerun(kind: kind, path: path, results: try ReportFlags.load(path, flag: "run: \(flag)"))
    }

    /// `fmeval run: N cases`, with what was selected out and, for a rerun, which earlier cases these are.
    static func header(_ plan: RunPlan, request: RunRequest) -> String {
        var line = "fmeval run: \(plan.cases.count) case\(plan.cases.count == 1 ? "" : "s")"
        if let rerun = request.rerun {
            switch rerun.kind {
            case .lastFailed:
                line += " (the cases that failed in \(rerun.path))"
            case .retryErrors:
                line += " (the error cases of \(rerun.path); its other cases are kept as they were)"
            }
        }
        let filtered = plan.skipped.filter {
            if case .filteredOut = $0.cause { return true } else { return false }
        }.count
        if filtered > 0 && request.rerun?.kind != .retryErrors { line += ", \(filtered) skipped by --filter" }
        return line
    }

    /// After a `--fail-fast` run that stopped early: which case stopped it and how many did not run.
    static func printNotRun(_ result: RunResult, resultsPath: String) {
        let triggers = result.skipped.compactMap { entry -> String? in
            if case .failFast(let trigger) = entry.cause { return trigger } else { return nil }
        }
        guard let trigger = triggers.first else { return }
        let notRun = triggers
        print("Stopped by --fail-fast after \(trigger) failed: \(notRun.count) case\(notRun.count == 1 ? "" : "s") not run "
              + "(listed as skipped; run them with --resume \(resultsPath))")
    }
}
