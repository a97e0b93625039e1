import Foundation
import FMCore
import FMEngines
import FMReport
import FMResults
import FMRun
import FMSuite

/// `fmeval catalogue PATH... [--output FILE | --check FILE] [--results FILE] [engine flags]`: the
/// Markdown catalogue of reproduced bugs, from a run of the suites or from a results file.
struct CatalogueCommand: Command {
    static let path = ["catalogue"]
    static let summary = "Write the Markdown catalogue of reproduced bugs (docs/forum-bugs.md) from a run"
    static let output = Flag("--output", .value("FILE"), help: "write the catalogue to FILE (default: standard output)")
    static let check = Flag("--check", .value("FILE"), help: """
        compare FILE with the catalogue instead of writing it; exit 1 when it differs
        (the message says the command that regenerates it)
        """)
    static let results = Flag("--results", .value("FILE"), help:
                              "take the results from FILE (an earlier `fmeval run`) instead of running the suites")
    static let jobs = Flag("--jobs", short: "-j", .value("N"), help: "cases run in parallel (default 1)")
    static let model = Flag("--model", .value("FILE"), help: "the model of the engine")
    static let usage = CommandUsage("catalogue", "[PATH...]", flags: .oneOf(output, check) + FlagTable(results, jobs)
                                 + EngineFlags.table(default: "each suite's `engine:`, else embedded")
                                     + FlagTable(model))
    static let help = """
    \(usage.line)

    Loads suites (files or folders; default: suites/forum), runs them (or reads --results), and writes a
    Markdown catalogue: per suite the bug (its description), its source link, what reproduces it
    (reproducedWith), and per case what it checks (from its expectations), its channel (variant), how
    often it reproduced (k/N attempts failing their expectations, with a Wilson 95% interval) and its
    verdict. The text holds no timings or run ids: the same suites on the same engine give the same file.

    OPTIONS:
    \(usage.flags.list())

    Exit codes: 0 written, or FILE is up to date · 1 FILE is stale · 2 invalid input (a suite, a flag, a
    results file) · 3 an engine or infrastructure error.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "catalogue", flags: usage.flags)
        let engineFlags = try EngineFlags.parse(args)
        let model = args.value(Self.model)
        let jobs = try args.int(Self.jobs, minimum: 1) ?? 1
        let output = args.value(Self.output)
        let check = args.value(Self.check)
        let resultsFile = args.value(Self.results)
        var paths = args.positionals
        if paths.isEmpty { paths = ["suites/forum"] }
        if output != nil && check != nil {
            throw Fault.invalidInput("catalogue: --output and --check exclude each other; write the file with one run, check it with another")
        }
        if resultsFile != nil && (engineFlags.name != nil || !engineFlags.options.isEmpty || model != nil) {
            throw Fault.invalidInput("catalogue: --results takes the results as they were run; leave out the engine flags, or drop --results to run the suites")
        }
        let loaded = SuiteLoader.load(paths: paths)
        let problems = loaded.diagnostics + RunPipeline.foldersWithoutSuites(paths)
        if !problems.isEmpty {
            throw Fault.invalidInput(problems.map(\.description).joined(separator: "\n") + "\n\(problems.count) error(s); fix them (see 'fmeval validate')")
        }
        if let output { try OutputPaths.check(output, flag: "--output \(output)") }
        let run = try resultsFile.map { try ReportFlags.load($0, flag: "catalogue: --results") }
            ?? runSuites(paths: paths, loaded: loaded, engineFlags: engineFlags, model: model, jobs: jobs)
        let command = (["fmeval", "catalogue"] + regenerateArguments(arguments, target: check)).joined(separator: " ")
        let text = Catalogue.markdown(catalogueSuites(loaded, results: run), command: command)
        if let check {
            guard let existing = FileManager.default.contents(atPath: check) else {
                throw Fault.invalidInput("catalogue: --check \(check): no such file; write it with `\(command)`")
            }
            guard String(decoding: existing, as: UTF8.self) == text else {
                printError("fmeval: \(check) is stale; run `\(command)`")
                return ExitStatus.failed
            }
            print("\(check) is up to date")
            return ExitStatus.ok
        }
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw Fault.infrastructure("catalogue: cannot write \(output): \(error.localizedDescription)")
            }
            print("catalogue: \(output)")
        } else {
            print(text, terminator: "")
        }
        return ExitStatus.ok
    }

    /// The arguments that regenerate the catalogue: these, with `--check FILE` turned into `--output FILE`.
    static func regenerateArguments(_ arguments: [String], target: String?) -> [String] {
        guard target != nil else { return arguments }
        return arguments.map { $0 == "--check" ? "--output" : ($0.hasPrefix("--check=") ? "--output=" + $0.dropFirst("--check=".count) : $0) }
    }

    /// Runs every case of the loaded suites (results in a scratch folder, no history) and returns the run.
    static func runSuites(paths: [String], loaded: SuiteLoadResult, engineFlags: EngineFlags, model: String?, jobs: Int) throws -> RunResult {
        let scratch = FilePaths.join(FileManager.default.temporaryDirectory.path, "fmeval-catalogue-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        } catch {
            throw Fault.infrastructure("catalogue: cannot create a scratch folder \(scratch): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var request = RunRequest(paths: paths, resultsPath: FilePaths.join(scratch, "results.json"))
        request.loaded = loaded
        request.engine = engineFlags.name
        request.engineOptions = engineFlags.options
        request.model = model
        request.options = RunnerOptions(jobs: jobs)
        let plan = try RunPipeline.plan(request)
        printError("catalogue: running \(plan.cases.count) case\(plan.cases.count == 1 ? "" : "s")")
        return try RunPipeline.execute(request, plan: plan, notice: { printError("fmeval: \($0)") })
    }

    /// The catalogue's suites: each loaded suite with its cases × variants and their results in `results`.
    static func catalogueSuites(_ loaded: SuiteLoadResult, results: RunResult) -> [CatalogueSuite] {
        let byID = Dictionary(results.cases.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return loaded.suites.map { suite in
            CatalogueSuite(name: suite.name, description: suite.description, origin: suite.origin, file: suite.file,
                           cases: suite.expanded().map { item in
                               CatalogueCase(caseID: item.caseID, variant: item.variant,
                                             checks: CatalogueChecks.describe(item.expectations), result: byID[item.id])
                           })
        }
    }
}
