import Foundation
import FMCore
import FMResults
import FMReport
import FMRun

/// `fmeval merge RESULTS.json...`: combine shard results into one results document plus reports.
struct MergeCommand: Command {
    static let path = ["merge"]
    static let summary = "Merge shard results files into one (plus its reports: \(ReportFlags.flagList(providing: formats)))"
    static let json = Flag("--json", .value("OUT"),
                           help: "write the merged results here (default: print them on standard output)")
    static let usage = CommandUsage("merge", "RESULTS.json...",
                                    flags: FlagTable(json) + ReportFlags.table(providing: formats)
                                 + .oneOf(HistoryFlags.history.described("the run history to append the merged run to"),
                                          HistoryFlags.noHistory.described("do not record the merged run"))
                                 + ReportFlags.verbosityTable)
    static let help = """
    \(usage.line)

    Combines the results of 'fmeval run --shard I/N' (or any partial runs of one configuration) into one
    results document: every case kept unchanged, skipped lists united, classification matrices summed.
    Two results for the same case id are an error (the inputs overlap), as are runs of different engines
    or models. A missing shard is reported as a warning. Reports are made from the merged results. The
    merged run is appended to the run history (docs/history.md): history.sqlite beside OUT (without
    --json: reports/history.sqlite); a history that cannot be written is a warning.

    OPTIONS:
    \(usage.flags.list(column: 18))

    Exit codes: the merged run's own: 0 every gate holds · 1 a gate failed · 3 a case errored;
    2 invalid input (an unreadable or invalid file, overlapping shards).
    """

    /// What `merge` has for the report formats: the merged results document.
    static let formats: Set<ReportFormat.Needs> = [.results]

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "merge", flags: usage.flags)
        let json = args.value(Self.json)
        let outputs = ReportFlags.parseOutputs(args, providing: formats)
        let history = try HistoryFlags.parse(args, command: "merge")
        let files = args.positionals
        guard !files.isEmpty else {
            throw Fault.invalidInput("merge: give the results files to merge, e.g. 'fmeval merge shard-*.json --json merged.json'")
        }
        let inputs = try files.map { (name: $0, result: try ReportFlags.load($0, flag: "merge:")) }
        let outcome: MergeResults.Outcome
        do {
            outcome = try MergeResults.merge(inputs)
        } catch let error as Fault {
            throw Fault.invalidInput(error.message)
        }
        for warning in outcome.warnings { printError("fmeval: warning: \(warning)") }
        let merged = outcome.result
        if let json {
            do {
                try ResultsFile.write(merged, to: json)
            } catch let error as Fault {
                throw Fault.infrastructure(error.message)
            }
        } else {
            printJSON(try ContentEncoder.jsonText(merged))
        }
        // With the JSON on stdout, the human summary goes to stderr so the JSON stays parseable.
        let verbosity = ReportFlags.verbosity(args)
        let say: (String) -> Void = json == nil ? { printError($0) } : { print($0) }
        let announce: (String) -> Void = verbosity == .quiet ? { _ in } : say
        if let json { announce("json: \(json)") }
        let store = history.store(resultsPath: json)
        let (saved, warnings) = (store.map { [$0] } ?? []).save(merged, resultsPath: json ?? "standard output")
        saved.forEach { announce("history: \($0)") }
        warnings.forEach { printError("fmeval: \($0)") }
        let input = ReportInput(results: merged, comparisons: ABComparison.variants(of: merged),
                                history: history.context(for: merged, store: store))
        TerminalText.details(input, verbosity: verbosity).forEach(say)
        try ReportFlags.write(outputs, input: input, announce: announce)
        say(TerminalText.closing(input.verdict, verbosity: verbosity))
        return input.verdict.exitCode
    }
}
