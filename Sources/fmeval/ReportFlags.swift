import FMCore
import FMHistory
import Foundation
import FMResults
import FMReport
import FMRun

/// One report asked for on the command line: a registered format and the file to write it to.
struct ReportOutput {
    /// The format (`ReportFormats.all`).
    var format: ReportFormat
    /// Where to write it.
    var path: String
}

/// The report and CI-gate flags of `fmeval run`: a `--NAME FILE` for each results format in
/// `ReportFormats` (`--junit`, `--html`, …), `--baseline FILE --fail-on-regression --shard I/N`, and
/// what happens with them after the run. `report`, `merge` and `compare` take their report flags,
/// help lines and writing from here too.
///
/// RunCommand calls `parse(&args)` before `args.finish()`, `loadBaseline()` before running (so a bad
/// baseline stops with exit 2 before anything executes), feeds `LiveProgress` from its progress
/// callback, and returns `finish(result, baseline:)` as its exit code.
struct ReportFlags {
    /// The reports to write, in registry order.
    var outputs: [ReportOutput] = []
    /// The prior results to classify cases against.
    var baselinePath: String?
    /// Exit 1 only for regressions and new failures against the baseline.
    var failOnRegression = false
    /// The shard of the cases to run (`Shard.all` when not given).
    var shard = Shard.all
    /// How the summary is printed (colours, width).
    var style = TerminalStyle.plain

    /// Flag help for `fmeval run --help`.
    static let help = ReportFlags.optionLines(providing: [.results], column: 23) + "\n" + """
      --baseline FILE        classify each case against a prior results file: regression, new-failure,
                             fixed, still-failing, unchanged; history:NAME takes a run of the run history
                             instead (history:last, history:last-passing, history:RUN_NUMBER or RUN_ID,
                             history:BRANCH for that branch's newest run)
      --fail-on-regression   with --baseline: exit 1 only for regressions and new failures (0 otherwise)
      --shard I/N            run shard I of N (a stable partition by suite/variant/case id; combine the
                             shards' results with 'fmeval merge')
    """

    /// Reads the report flags out of `arguments`; throws exit-2 errors naming the flag.
    static func parse(_ arguments: inout Arguments) throws -> ReportFlags {
        var flags = ReportFlags()
        flags.outputs = try parseOutputs(&arguments, providing: [.results])
        flags.baselinePath = try arguments.option("--baseline")
        flags.failOnRegression = arguments.flag("--fail-on-regression")
        if let text = try arguments.option("--shard") {
            do {
                flags.shard = try Shard(parsing: text)
            } catch let error as ShardError {
                throw Fault.invalidInput("run: \(error.message)")
            }
        }
        if flags.failOnRegression && flags.baselinePath == nil {
            throw Fault.invalidInput("run: --fail-on-regression needs --baseline FILE (the results to compare against)")
        }
        return flags
    }

    /// The reports asked for among the formats a command with `provided` can write, in registry order.
    static func parseOutputs(_ arguments: inout Arguments, providing provided: Set<ReportFormat.Needs>) throws -> [ReportOutput] {
        try ReportFormats.available(providing: provided).compactMap { format in
            try arguments.option(format.flag).map { ReportOutput(format: format, path: $0) }
        }
    }

    /// `[--junit FILE] [--html FILE] …` for a USAGE line: the formats a command with `provided` writes.
    static func usage(providing provided: Set<ReportFormat.Needs>) -> String {
        ReportFormats.available(providing: provided).map { "[\($0.flag) FILE]" }.joined(separator: " ")
    }

    /// `--junit, --html, …`: the flags of the formats a command with `provided` writes, for a summary.
    static func flagList(providing provided: Set<ReportFormat.Needs>) -> String {
        ReportFormats.available(providing: provided).map(\.flag).joined(separator: ", ")
    }

    /// One OPTIONS line per format a command with `provided` writes, help text starting at `column`.
    static func optionLines(providing provided: Set<ReportFormat.Needs>, column: Int) -> String {
        ReportFormats.available(providing: provided).map { format in
            let flag = "\(format.flag) FILE"
            return "  " + flag + String(repeating: " ", count: max(2, column - flag.count)) + format.help
        }.joined(separator: "\n")
    }

    /// The shard to give the runner, or nil for the whole run.
    var shardSelection: Shard? { shard == .all ? nil : shard }

    /// Reads the baseline results, when `--baseline` was given, from the store it names: a results
    /// file, or with `history:NAME` the run NAME of the history file `historyFile`; exit 2 naming the
    /// flag when the store or the run is missing.
    func loadBaseline(historyFile: String? = nil) throws -> RunResult? {
        guard let baselinePath else { return nil }
        let (store, name, label) = ReportFlags.baselineStore(baselinePath, historyFile: historyFile)
        do {
            return try store.loadRun(named: name)
        } catch let error as Fault {
            throw error.prefixed(label)
        }
    }

    /// The store a `--baseline` value names, the run's name in it, and the prefix of its errors.
    static func baselineStore(_ value: String, historyFile: String?) -> (any ResultStore, String, String) {
        let history = "history:"
        if let historyFile, value.hasPrefix(history) {
            let name = String(value.dropFirst(history.count))
            return (HistoryStore(path: historyFile, create: false), name, "--baseline \(value): ")
        }
        return (ResultsFileStore(path: value), "last", "--baseline ")
    }

    /// Prints the summary (and the baseline and A/B tables), writes the requested reports, and
    /// returns the exit code: the run's own (0 / 1 / 3), or with `--fail-on-regression` 1 exactly
    /// when a case regressed or newly fails.
    func finish(_ run: RunResult, baseline: RunResult?, history: HistoryContext? = nil) throws -> Int32 {
        let comparison = baseline.map { BaselineComparison(baseline: $0, current: run) }
        let abComparisons = ABComparison.variants(of: run)
        print(TerminalText.styledSummary(run, style: style))
        if let regressions = history.flatMap({ TerminalText.historyRegressions($0) }) { print(regressions) }
        if let comparison { print(TerminalText.baselineTable(comparison)) }
        for ab in abComparisons { print(ABText.terminal(ab)) }
        try ReportFlags.write(outputs, input: ReportInput(results: run, baseline: comparison, comparisons: abComparisons, history: history))
        guard failOnRegression, let comparison else { return run.exitCode }
        return comparison.hasRegressions ? ExitStatus.failed : ExitStatus.ok
    }

    /// Writes each report of `outputs` from `input`, announcing each as `NAME: FILE`; an unwritable
    /// file is exit 3, a report that cannot be made exit 2.
    static func write(_ outputs: [ReportOutput], input: ReportInput, announce: (String) -> Void = { print($0) }) throws {
        for output in outputs {
            try ResultsFile.writeReport(try output.format.render(input), to: output.path)
            announce("\(output.format.name): \(output.path)")
        }
    }

    /// Reads a results file given to `flag`, as an exit-2 error naming the flag and file when unusable.
    static func load(_ path: String, flag: String) throws -> RunResult {
        do {
            return try ResultsFile.load(path)
        } catch let error as Fault {
            throw error.prefixed("\(flag) ")
        }
    }
}
