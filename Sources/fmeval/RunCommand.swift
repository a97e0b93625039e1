import Foundation
import FMEngines
import FMRun

/// `fmeval run`: run suites on an engine, score every attempt, write versioned JSON results.
struct RunCommand: Command {
    static let path = ["run"]
    static let summary = "Run suites on an engine and write results (JSON; exit 1 when a gate fails)"
    static let help = """
    USAGE: fmeval run [PATH...] [--engine NAME] [--model FILE] [--variant NAME]... [--repeat N] [--jobs N]
                      [--filter EXPR] [--shard I/N] [--json FILE] [--out DIR] [--junit FILE] [--html FILE]
                      [--baseline FILE] [--fail-on-regression] [--record FILE | --cassette FILE]
                      [--resume FILE] [--check-determinism]

    Loads suites (files or folders; default: suites/), validates them (any error stops the run with exit 2
    before anything executes), runs every case × variant × repeat through a session on the engine, scores
    each attempt with the case's expectations, and writes the results document (docs/results-format.md).
    Each finished case is appended to FILE.jsonl at once, so a crash or Ctrl-C loses nothing finished.

    OPTIONS:
      --engine NAME        embedded (default), scripted, replay; overrides each suite's `engine:`
      --model FILE         the model for the engine; overrides each suite's `model:`
      --variant NAME       run only this variant (repeatable)
      --repeat N           attempts per case, replacing each case's `repeat`
      --jobs N             cases run in parallel, each in its own session (default 1)
      --filter EXPR        comma-separated terms, any may match: tag:NAME, suite:NAME, id:GLOB or GLOB;
                           a leading ! excludes (e.g. "tag:forum,!id:*slow*")
      --json FILE          results file (default: OUT/results.json)
      --out DIR            folder for outputs (default: reports)
      --record FILE        record every engine call into a cassette for the replay engine
      --cassette FILE      the cassette the replay engine plays (with --engine replay)
      --resume FILE        finish an interrupted run: keep the cases finished in FILE (results or .jsonl journal)
      --check-determinism  rerun each greedy attempt and flag any divergence (exit 1)
    \(ReportFlags.help)

    Exit codes: 0 every gate holds · 1 a gate failed or a rerun diverged · 2 invalid input · 3 an engine or
    infrastructure error (a case in `error`, an engine that cannot start).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        var args = Arguments(arguments, command: "run")
        let engine = try args.option("--engine")
        let model = try args.option("--model")
        let variants = try args.options("--variant")
        let repeatCount = try args.intOption("--repeat", minimum: 1)
        let jobs = try args.intOption("--jobs", minimum: 1) ?? 1
        let filter = try args.option("--filter")
        let out = try args.option("--out") ?? "reports"
        let json = try args.option("--json")
        let record = try args.option("--record")
        let cassette = try args.option("--cassette")
        let resume = try args.option("--resume")
        let checkDeterminism = args.flag("--check-determinism")
        let reports = try ReportFlags.parse(&args)
        var paths = try args.finish()
        if paths.isEmpty { paths = ["suites"] }
        if record != nil && cassette != nil {
            throw CLIError.invalidInput("run: --record and --cassette exclude each other; record with one run, replay with another")
        }
        if cassette != nil && engine != nil && engine != "replay" {
            throw CLIError.invalidInput("run: --cassette is for --engine replay, not --engine \(engine!)")
        }

        var request = RunRequest(paths: paths, resultsPath: json ?? (out as NSString).appendingPathComponent("results.json"))
        request.engine = engine ?? (cassette != nil ? "replay" : nil)
        request.model = model
        request.variants = variants
        request.filter = filter
        request.cassette = cassette
        request.record = record
        request.resume = resume
        request.arguments = arguments
        request.shard = reports.shardSelection
        request.options = RunnerOptions(repeatOverride: repeatCount, jobs: jobs, checkDeterminism: checkDeterminism)

        do {
            let plan = try RunPipeline.plan(request)
            let baseline = try reports.loadBaseline()
            print("fmeval run: \(plan.cases.count) case\(plan.cases.count == 1 ? "" : "s")"
                  + (plan.skipped.isEmpty ? "" : ", \(plan.skipped.count) skipped by --filter"))
            let terminal = TerminalReporter()
            let result = try RunPipeline.execute(request, plan: plan, progress: terminal.caseFinished)
            terminal.finish()
            print("results: \(request.resultsPath)")
            return try reports.finish(result, baseline: baseline)
        } catch let error as RunnerError {
            switch error {
            case .invalidInput(let message): throw CLIError.invalidInput(message)
            case .infrastructure(let message): throw CLIError.infrastructure(message)
            }
        } catch let error as EngineSetupError {
            throw error.isInvalidInput ? CLIError.invalidInput(error.message) : CLIError.infrastructure(error.message)
        }
    }
}
