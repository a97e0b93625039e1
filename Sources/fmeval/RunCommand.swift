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
    USAGE: fmeval run [PATH...] [--engine NAME] [--engine-option KEY=VALUE]... [--base-url URL] [--model FILE] [--variant NAME]...
                      [--repeat N] [-j|--jobs N]
                      [-k|--filter EXPR] [--shard I/N] [--json FILE] [-o|--out DIR] \(ReportFlags.usage(providing: [.results]))
                      [--baseline FILE] [--fail-on-regression] [--record FILE | --cassette FILE]
                      [--resume FILE | --fresh | --last-failed[=FILE] | --retry-errors FILE] [-x|--fail-fast]
                      [--check-determinism] [--keep-going] [--guide-enforcement device|strict]
                      [--transcript-dialect 26|27]
                      [--color auto|always|never] [--history FILE | --no-history] \(ThroughputFlags.usage)

    Loads suites (files or folders; default: suites/), validates them (any error stops the run with exit 2
    before anything executes), runs every case × variant × repeat through a session on the engine, scores
    each attempt with the case's expectations, and writes the results document (docs/results-format.md).
    Each finished case is appended to FILE.jsonl at once, so a crash or Ctrl-C loses nothing finished; that
    journal is kept until a run resumes from it (--resume) or starts over (--fresh). The output folder is
    locked while a run writes it: a second run on it names the first one's pid and exits 2.
    The finished run is also appended to the run history (--history; docs/history.md): one that cannot be
    written is a warning, and the results, reports and exit code are as without it.
    Every output path (results, \(ReportFlags.flagList(providing: [.results])), --record) is checked before anything runs.
    A run never passes by selecting nothing: a folder without suites, or a --filter that matches no case,
    is an error (exit 2) that names the closest case ids. A --shard that holds none of the selected cases
    says so and exits 0 (normal when a CI matrix has more shards than cases).

    OPTIONS:
    \(EngineFlags.help(default: "each suite's `engine:`, else \(EngineRegistry.defaultEngine)"))
      --model FILE           the model for the engine (its `model` option); overrides each suite's `model:`
      --variant NAME         run only this variant (repeatable)
      --repeat N             attempts per case (1 to 10000), replacing each case's `repeat`
      -j, --jobs N           cases run in parallel, each in its own session (default 1)
      -k, --filter EXPR      comma-separated terms, any may match: tag:NAME, suite:NAME, id:GLOB or GLOB;
                             a leading ! excludes (e.g. "tag:forum,!id:*slow*"); id: matches the whole
                             id suite/case[@variant], so write id:*paris* for part of it
      --json FILE            results file (default: OUT/results.json)
      -o, --out DIR          folder for outputs (default: reports)
      -x, --fail-fast        start no new case once one fails its gate or errors (running cases finish);
                             the cases not run are listed as skipped and counted in the summary, and the
                             results, journal and reports are written as usual (finish with --resume FILE)
      --last-failed[=FILE]   rerun only the cases that failed the run in FILE (status failed or error, or a
                             diverged determinism rerun; flaky cases held their gate and are not rerun);
                             FILE defaults to this run's results file and must be attached with '='. The
                             new results hold just the rerun cases. When none failed, says so and exits 0
      --retry-errors FILE    rerun only the `error` cases of FILE (on the same engine and model) and merge
                             them into FILE's results, the other cases kept as they were; the merged
                             results go back to FILE (or to --json FILE), and reports are written from them
      --record FILE          record every engine call into a cassette for the replay engine
      --cassette FILE        the cassette the replay engine plays (its `cassette` option; implies --engine replay)
      --resume FILE          finish an interrupted run: keep the cases finished in FILE (results or .jsonl
                             journal; FILE's journal when FILE was never written) whose definition and
                             engine are unchanged; the others run again, and a line says which and why
      --fresh                start over although the output holds the journal of an interrupted run (that
                             journal is replaced); without it such a run stops with exit 2 and says how to resume
      --check-determinism    rerun each greedy attempt and flag any divergence (exit 1)
    \(ThroughputFlags.help)
      --keep-going           when a suite's recorded transcripts (`transcripts:`) include invalid files, score
                             the valid ones and list the invalid ones as error cases (the run still exits 2);
                             without it, an invalid transcript stops the run before anything is scored
      --guide-enforcement P  which guides the grammar enforces, over every suite's `guideEnforcement`:
                             strict (every guide; default) or device (what the on-device decoder
                             enforces, no loop guards); see docs/device-differences.md
      --transcript-dialect D the Foundation Models dialect of every transcript in the results and journal: 27
                             (`"version": "1.1"`, flat options, data: images) or 26 (`"version": 1`, options
                             under `sampling`) for teams still on 26; by default a new session's is 27 and a
                             recorded file's stays its own (docs/results-format.md)
      --color WHEN           auto (default: colour when standard output is a terminal, NO_COLOR is unset or
                             empty and TERM is not dumb), always (even with NO_COLOR), never
    \(ReportFlags.help)
    \(HistoryFlags.help)

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
        var args = Arguments(arguments, command: "run")
        let engineFlags = try EngineFlags.parse(&args)
        let engine = engineFlags.name
        let model = try args.option("--model")
        let variants = try args.options("--variant")
        let repeatCount = try args.intOption("--repeat", minimum: 1, maximum: RunLimits.maximumRepeat)
        let jobs = try args.intOption("--jobs", short: "-j", minimum: 1) ?? 1
        let filter = try args.option("--filter", short: "-k")
        let out = try args.option("--out", short: "-o") ?? "reports"
        let json = try args.option("--json")
        let record = try args.option("--record")
        let cassette = try args.option("--cassette")
        let resume = try args.option("--resume")
        let lastFailed = try args.optionalValue("--last-failed")
        let retryErrors = try args.option("--retry-errors")
        let failFast = args.flag("--fail-fast", short: "-x")
        let checkDeterminism = args.flag("--check-determinism")
        let keepGoing = args.flag("--keep-going")
        let fresh = args.flag("--fresh")
        let throughput = try ThroughputFlags.parse(&args, command: "run")
        let guideEnforcement = try args.option("--guide-enforcement").map { name in
            guard let enforcement = GuideEnforcement(rawValue: name) else {
                throw Fault.invalidInput("run: --guide-enforcement must be device or strict, not '\(name)'")
            }
            return enforcement
        }
        let transcriptDialect = try args.option("--transcript-dialect").map { name in
            guard let dialect = Transcript.Dialect(rawValue: name) else {
                throw Fault.invalidInput(
                    "run: --transcript-dialect must be 26 or 27 (Foundation Models 26 or 27), not '\(name)'")
            }
            return dialect
        }
        let color = try colorChoice(try args.option("--color"))
        var reports = try ReportFlags.parse(&args)
        let history = try HistoryFlags.parse(&args, command: "run")
        let paths = try args.finish()
        if record != nil && cassette != nil {
            throw Fault.invalidInput("run: --record and --cassette exclude each other; record with one run, replay with another")
        }
        if cassette != nil && engine != nil && engine != "replay" {
            throw Fault.invalidInput("run: --cassette is for --engine replay, not --engine \(engine!)")
        }
        let pathFlags: [(String, String?)] = [("--out", out), ("--json", json), ("--record", record), ("--cassette", cassette),
                                          ("--resume", resume), ("--retry-errors", retryErrors), ("--model", model)]
        if let empty = pathFlags.first(where: { $0.1?.isEmpty == true }) {
            throw Fault.invalidInput("run: \(empty.0) was given an empty path; give a path (nothing was run)")
        }
        let continuations = [resume.map { _ in "--resume" }, lastFailed.map { _ in "--last-failed" }, retryErrors.map { _ in "--retry-errors" },
                             fresh ? "--fresh" : nil].compactMap { $0 }
        if continuations.count > 1 {
            throw Fault.invalidInput("run: \(continuations.joined(separator: " and ")) exclude each other; pick one")
        }

        let defaultResults = FilePaths.join(out, "results.json")
        var request = RunRequest(paths: paths, resultsPath: json ?? retryErrors ?? defaultResults)
        request.engine = engine ?? (cassette != nil ? "replay" : nil)
        request.model = model
        request.engineOptions = engineFlags.options
        request.variants = variants
        request.guideEnforcement = guideEnforcement
        request.filter = filter
        request.cassette = cassette
        request.record = record
        request.resume = resume
        request.arguments = arguments
        request.keepGoing = keepGoing
        request.fresh = fresh
        request.shard = reports.shardSelection
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
        let outputs = [(request.resultsPath, resultsFlag)] + reportOutputs + (record.map { [($0, "--record \($0)")] } ?? [])
        // Every empty path is refused before any folder is made for the others.
        for (path, flag) in outputs where path.isEmpty { try OutputPaths.check(path, flag: flag) }
        for (path, flag) in outputs { try OutputPaths.check(path, flag: flag) }
        for note in plan.notes { print(note.text) }
        print(header(plan, request: request))
        let environment = ProcessInfo.processInfo.environment
        let mode = LiveProgress.Mode.detect(environment: environment, isTerminal: Terminal.isTerminal)
        reports.style = Terminal.style(choice: color, mode: mode, environment: environment)
        let progress = LiveProgress(mode: mode, style: reports.style, write: Terminal.write)
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
        let code = try reports.finish(result, baseline: baseline, history: history.context(for: result, store: store))
        if failFast { printNotRun(result, resultsPath: request.resultsPath) }
        print("results: \(request.resultsPath)")
        let invalid = RecordedCases.problems(of: plan.cases)
        if !invalid.isEmpty {
            printError("fmeval: \(invalid.count) recorded transcript\(invalid.count == 1 ? " is" : "s are") not valid FoundationModels.Transcript JSON "
                + "(listed as errors); exit 2 until \(invalid.count == 1 ? "it is" : "they are") fixed")
            return ExitStatus.invalidInput
        }
        return code
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
