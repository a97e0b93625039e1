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
/// `ReportFormats` (`--junit`, `--html`, …), `--baseline FILE --fail-on-regression`, and
/// what happens with them after the run. `report`, `merge` and `compare` take their report flags,
/// help lines and writing from here too.
///
/// RunCommand calls `parse(args)`, `loadBaseline()` before running (so a bad
/// baseline stops with exit 2 before anything executes), feeds `LiveProgress` from its progress
/// callback, and returns `finish(result, baseline:)` as its exit code.
struct ReportFlags {
    /// The reports to write, in registry order.
    var outputs: [ReportOutput] = []
    /// The prior results to classify cases against.
    var baselinePath: String?
    /// Exit 1 only for regressions and new failures against the baseline.
    var failOnRegression = false
    /// Which regressions `failOnRegression` fails on, by cause.
    var regressionsFrom = RegressionSource.any
    /// How the summary is printed (colours, width).
    var style = TerminalStyle.plain
    /// How much is printed (`-q`, `-v`).
    var verbosity = Verbosity.normal

    /// `--baseline FILE`.
    static let baseline = Flag("--baseline", .value("FILE"), help: """
        classify each case against a prior results file: regression, new-failure,
        fixed, still-failing, unchanged; history:NAME takes a run of the run history
        instead (history:last, history:last-passing, history:RUN_NUMBER or RUN_ID,
        history:BRANCH for that branch's newest run)
        """)
    /// `--fail-on-regression`.
    static let failOnRegressionFlag = Flag("--fail-on-regression",
                                           help: "with --baseline: exit 1 only for regressions and new failures (0 otherwise)")
    /// `--regressions-from CAUSE`.
    static let regressionsFromFlag = Flag("--regressions-from", .value("CAUSE"), help: """
        with --fail-on-regression: gate only on regressions of one cause: model (the
        model changed: its file, the server's model or build, the OS), case (the case's
        definition changed, or it is new) or any (the default)
        """)
    /// `-q`, `--quiet`.
    static let quiet = Flag("--quiet", short: "-q",
                            help: "print only the cases that fail their gate, then the counts and the verdict")
    /// `-v`, `--verbose`.
    static let verbose = Flag("--verbose", short: "-v", help: """
        print every case with its reason and the full A/B, baseline and history
        tables (by default a plain pass is only counted and each table is one line)
        """)
    /// `[-q|--quiet | -v|--verbose]`.
    static let verbosityTable = FlagTable.oneOf(quiet, verbose)

    /// The verbosity `-q` or `-v` asks for (the table makes them exclusive).
    static func verbosity(_ arguments: Arguments) -> Verbosity {
        arguments.flag(quiet) ? .quiet : (arguments.flag(verbose) ? .verbose : .normal)
    }

    /// The CI-gate flags of `run`: `--baseline`, `--fail-on-regression`, `--regressions-from`.
    static let gateTable = FlagTable(baseline, failOnRegressionFlag, regressionsFromFlag)

    /// Reads the report and gate flags from `arguments`; throws exit-2 errors naming the flag.
    static func parse(_ arguments: Arguments) throws -> ReportFlags {
        var flags = ReportFlags()
        flags.outputs = parseOutputs(arguments, providing: [.results])
        flags.baselinePath = arguments.value(baseline)
        flags.failOnRegression = arguments.flag(failOnRegressionFlag)
        flags.verbosity = verbosity(arguments)
        if flags.failOnRegression && flags.baselinePath == nil {
            throw Fault.invalidInput("run: --fail-on-regression needs --baseline FILE (the results to compare against)")
        }
        if let text = arguments.value(regressionsFromFlag) {
            let names = RegressionSource.allCases.map(\.rawValue)
            guard let source = RegressionSource(rawValue: text) else {
                throw Fault.invalidInput("run: --regressions-from takes one of \(names.joined(separator: ", ")), "
                    + "not '\(text)'")
            }
            guard flags.failOnRegression else {
                throw Fault.invalidInput("run: --regressions-from \(text) limits --fail-on-regression; add "
                    + "--fail-on-regression (and --baseline FILE)")
            }
            flags.regressionsFrom = source
        }
        return flags
    }

    /// The reports asked for among the formats a command with `provided` can write, in registry order.
    static func parseOutputs(_ arguments: Arguments, providing provided: Set<ReportFormat.Needs>) -> [ReportOutput] {
        ReportFormats.available(providing: provided).compactMap { format in
            arguments.value(flag(format)).map { ReportOutput(format: format, path: $0) }
        }
    }

    /// The `--NAME FILE` flag of a report format.
    static func flag(_ format: ReportFormat) -> Flag {
        Flag(format.flag, .value("FILE"), help: format.help)
    }

    /// `--junit FILE`, `--html FILE`, …: the flags of the formats a command with `provided` writes.
    static func table(providing provided: Set<ReportFormat.Needs>) -> FlagTable {
        FlagTable(ReportFormats.available(providing: provided).map(flag))
    }

    /// `--junit, --html, …`: the flags of the formats a command with `provided` writes, for a summary.
    static func flagList(providing provided: Set<ReportFormat.Needs>) -> String {
        ReportFormats.available(providing: provided).map(\.flag).joined(separator: ", ")
    }


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

    /// Prints the A/B, baseline and history details (as `verbosity` asks), writes the requested reports
    /// and returns the verdict; the caller prints `closing(_:)` last, and exits with its code.
    func finish(_ run: RunResult, baseline: RunResult?, history: HistoryContext? = nil) throws -> GateVerdict {
        let comparison = baseline.map { BaselineComparison(baseline: $0, current: run) }
        let input = ReportInput(results: run, baseline: comparison, comparisons: ABComparison.variants(of: run),
                                history: history, failOnRegression: failOnRegression,
                                regressionsFrom: regressionsFrom)
        for line in TerminalText.details(input, verbosity: verbosity) { print(line) }
        try ReportFlags.write(outputs, input: input, announce: verbosity == .quiet ? { _ in } : { print($0) })
        return input.verdict
    }

    /// The closing block, the run's last lines: the counts, what fails the gate, the verdict.
    func closing(_ verdict: GateVerdict) -> String {
        TerminalText.styledClosing(verdict, verbosity: verbosity, style: style)
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
