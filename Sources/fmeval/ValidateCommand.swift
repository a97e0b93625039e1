import FMCore
import Foundation
import FMResults
import FMRun
import FMSuite

/// `fmeval validate [PATH...] [--json]`: load suites, report every problem, or print the expansion.
struct ValidateCommand: Command {
    static let path = ["validate"]
    static let summary = "Check suite files and report every problem with file:line:col"
    static let json = Flag("--json", help: """
        Print the expanded cases (cases × variants, defaults applied) as JSON on stdout:
        exactly what `fmeval run` will execute. Nothing is printed on stdout when there are errors.
        """)
    static let usage = CommandUsage("validate", "[PATH...]", flags: FlagTable(json))
    static let help = """
    \(usage.line)

    Loads suite files (.yaml, .yml, .json; directories are searched recursively; default: suites/ here or in
    the nearest folder above), including the schemas, fixtures and .jsonl datasets they reference, and
    reports every problem as `path/to/suite.yaml:LINE:COL: error: message`, then a summary line
    `N suites, M cases, K errors`.
    Each `engine:` is checked against the engines of this build (names and options; see 'fmeval run --help').
    A suite's recorded transcripts (`transcripts:`) are read and each invalid one is reported at its
    `file:line:col` with the JSON pointer of the problem.

    OPTIONS:
    \(usage.flags.list(column: 12))

    Exit codes: 0 every suite is valid · 2 a file has errors, a path does not exist, a folder holds no
    suite file, or the suites define no case at all (so a mistyped path in CI cannot pass).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "validate", flags: usage.flags)
        let json = args.flag(Self.json)
        var paths = args.positionals
        if paths.isEmpty { paths = try SuiteDiscovery.defaultPaths(command: "validate") }
        let result = SuiteLoader.load(paths: paths)
        let cases = result.expandedCases
        let diagnostics = result.diagnostics + RunPipeline.foldersWithoutSuites(paths) + RecordedCases.problems(of: cases)
        for diagnostic in diagnostics { printError(diagnostic.description) }
        for warning in result.warnings { printError(warning.warningDescription) }
        let engineProblems = EngineResolution.problems(for: cases, request: nil)
        for line in engineProblems { printError(line) }
        var errors = diagnostics.count + engineProblems.count
        if errors == 0 && cases.isEmpty {
            printError("fmeval: error: the suites in \(paths.joined(separator: " ")) define no cases; add 'cases:' or a 'dataset:' ('fmeval run' would have nothing to run)")
            errors = 1
        }
        let summary = "\(result.files.count) suite\(result.files.count == 1 ? "" : "s"), \(cases.count) case\(cases.count == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s")"
        if json && errors == 0 {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(cases)
            print(String(decoding: data, as: UTF8.self))
            printError(summary)
        } else if json {
            printError(summary)
        } else {
            print(summary)
        }
        return errors == 0 ? ExitStatus.ok : ExitStatus.invalidInput
    }
}
