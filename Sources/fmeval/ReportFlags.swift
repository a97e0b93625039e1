import Foundation
import FMResults
import FMReport
import FMRun

/// The report and CI-gate flags of `fmeval run`: `--junit FILE --html FILE --baseline FILE
/// --fail-on-regression --shard I/N`, and what happens with them after the run.
///
/// RunCommand calls `parse(&args)` before `args.finish()`, `loadBaseline()` before running (so a bad
/// baseline stops with exit 2 before anything executes), feeds `LiveProgress` from its progress
/// callback, and returns `finish(result, baseline:)` as its exit code.
struct ReportFlags {
    /// Where to write JUnit XML, when asked.
    var junit: String?
    /// Where to write the HTML report, when asked.
    var html: String?
    /// The prior results to classify cases against.
    var baselinePath: String?
    /// Exit 1 only for regressions and new failures against the baseline.
    var failOnRegression = false
    /// The shard of the cases to run (`Shard.all` when not given).
    var shard = Shard.all
    /// How the summary is printed (colours, width).
    var style = TerminalStyle.plain

    /// Flag help for `fmeval run --help`.
    static let help = """
      --junit FILE           write JUnit XML (one testsuite per suite × variant)
      --html FILE            write a self-contained HTML report
      --baseline FILE        classify each case against a prior results file: regression, new-failure,
                             fixed, still-failing, unchanged
      --fail-on-regression   with --baseline: exit 1 only for regressions and new failures (0 otherwise)
      --shard I/N            run shard I of N (a stable partition by suite/variant/case id; combine the
                             shards' results with 'fmeval merge')
    """

    /// Reads the report flags out of `arguments`; throws exit-2 errors naming the flag.
    static func parse(_ arguments: inout Arguments) throws -> ReportFlags {
        var flags = ReportFlags()
        flags.junit = try arguments.option("--junit")
        flags.html = try arguments.option("--html")
        flags.baselinePath = try arguments.option("--baseline")
        flags.failOnRegression = arguments.flag("--fail-on-regression")
        if let text = try arguments.option("--shard") {
            do {
                flags.shard = try Shard(parsing: text)
            } catch let error as ShardError {
                throw CLIError.invalidInput("run: \(error.message)")
            }
        }
        if flags.failOnRegression && flags.baselinePath == nil {
            throw CLIError.invalidInput("run: --fail-on-regression needs --baseline FILE (the results to compare against)")
        }
        return flags
    }

    /// The shard to give the runner, or nil for the whole run.
    var shardSelection: Shard? { shard == .all ? nil : shard }

    /// Reads the baseline results, when `--baseline` was given.
    func loadBaseline() throws -> RunResult? {
        guard let baselinePath else { return nil }
        return try ReportFlags.load(baselinePath, flag: "--baseline")
    }

    /// Prints the summary (and the baseline and A/B tables), writes the requested reports, and
    /// returns the exit code: the run's own (0 / 1 / 3), or with `--fail-on-regression` 1 exactly
    /// when a case regressed or newly fails.
    func finish(_ run: RunResult, baseline: RunResult?) throws -> Int32 {
        let comparison = baseline.map { BaselineComparison(baseline: $0, current: run) }
        let abComparisons = ABComparison.variants(of: run)
        print(TerminalText.styledSummary(run, style: style))
        if let comparison { print(TerminalText.baselineTable(comparison)) }
        for ab in abComparisons { print(ABText.terminal(ab)) }
        try ReportFlags.write(run, baseline: comparison, comparisons: abComparisons, junit: junit, html: html)
        guard failOnRegression, let comparison else { return run.exitCode }
        return comparison.hasRegressions ? ExitCode.failed : ExitCode.ok
    }

    /// Writes JUnit and HTML for `run` where paths are given, announcing each path written.
    static func write(_ run: RunResult, baseline: BaselineComparison?, comparisons: [ABComparison],
                      junit: String?, html: String?, announce: (String) -> Void = { print($0) }) throws {
        do {
            if let junit {
                try ResultsFile.writeReport(Data(JUnitReport.render(run, baseline: baseline).utf8), to: junit)
                announce("junit: \(junit)")
            }
            if let html {
                try ResultsFile.writeReport(Data(HTMLReport.render(run, baseline: baseline, comparisons: comparisons).utf8), to: html)
                announce("html: \(html)")
            }
        } catch let error as ReportError {
            throw CLIError(message: error.message, exitCode: error.isInfrastructure ? ExitCode.infrastructure : ExitCode.invalidInput)
        }
    }

    /// Reads a results file given to `flag`, as an exit-2 error naming the flag and file when unusable.
    static func load(_ path: String, flag: String) throws -> RunResult {
        do {
            return try ResultsFile.load(path)
        } catch let error as ReportError {
            throw CLIError(message: "\(flag) \(error.message)", exitCode: error.isInfrastructure ? ExitCode.infrastructure : ExitCode.invalidInput)
        }
    }
}
