import FMCore
import Foundation
import FMResults
import FMReport
import FMRun

/// `fmeval report RESULTS.json [--junit FILE] [--html FILE] …`: reports from an existing results file.
struct ReportCommand: Command {
    static let path = ["report"]
    static let summary = "Print the summary of a results file; write its reports (\(ReportFlags.flagList(providing: formats)))"
    static let usage = CommandUsage("report", "RESULTS.json", flags: ReportFlags.table(providing: formats)
                                    + ReportFlags.verbosityTable)
    static let help = """
    \(usage.line)

    Reads a results document written by 'fmeval run' (or 'merge') and prints its terminal summary: the
    A/B comparison of each suite run with variants (one line each; the tables with -v), then the counts,
    every case that failed its gate with its reason, and the verdict. With a
    report flag it also writes that report, exactly as 'fmeval run' would have, so a report can be made
    long after the run, on another machine.

    OPTIONS:
    \(usage.flags.list(column: 17))

    Exit codes: the run's own: 0 every gate holds · 1 a gate failed · 3 a case errored; 2 invalid input
    (a missing or invalid results file, a bad flag); 3 also when a report cannot be written.
    """

    /// What `report` has for the report formats: one results document.
    static let formats: Set<ReportFormat.Needs> = [.results]

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "report", flags: usage.flags)
        var flags = ReportFlags()
        flags.outputs = ReportFlags.parseOutputs(args, providing: formats)
        flags.verbosity = ReportFlags.verbosity(args)
        let files = args.positionals
        guard files.count == 1 else {
            if files.isEmpty {
                throw Fault.invalidInput("report: give the results file, e.g. 'fmeval report reports/results.json --html report.html'")
            }
            throw Fault.invalidInput("report: takes one results file, got \(files.count); combine several with 'fmeval merge'")
        }
        let result = try ReportFlags.load(files[0], flag: "report:")
        let verdict = try flags.finish(result, baseline: nil)
        print(flags.closing(verdict))
        return verdict.exitCode
    }
}
