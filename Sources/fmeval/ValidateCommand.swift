import FMCore
import Foundation
import FMResults
import FMRun
import FMSuite

/// `fmeval validate [PATH...] [--json] [--device PROFILE]`: load suites, report every problem, or print the
/// expansion; with a device, preflight every case's context window.
struct ValidateCommand: Command {
    static let path = ["validate"]
    static let summary = "Check suite files and report every problem with file:line:col"
    static let json = Flag("--json", help: """
        Print the expanded cases (cases × variants, defaults applied) as JSON on stdout:
        exactly what `fmeval run` will execute. Nothing is printed on stdout when there are errors.
        """)
    static let device = SettingOverrideFlags.device.described("""
        check every case as on this device (\(DeviceProfile.names.joined(separator: ", "))), over the
        suites' own; a case on a device has its context window preflighted: instructions, tool
        definitions, schema, every prompt and images, counted by the engine the case runs on, plus
        maximumResponseTokens per turn; a case that cannot fit is an error (one that expects
        contextSizeExceeded is listed, not an error)
        """)
    static let usage = CommandUsage("validate", "[PATH...]", flags: FlagTable(json, device))
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

    A case that runs on a device profile (its suite's `device:`, or --device for every case) is checked
    against that device (a tool-calling mode or an image it does not have) and its context window is
    preflighted: the embedded engine counts with its model's tokenizer (fetched on first use), engines
    without a tokenizer 4 bytes a token. Tool outputs and the responses of a case without
    maximumResponseTokens are not known before the run, so they are not counted.

    Exit codes: 0 every suite is valid · 2 a file has errors, a path does not exist, a folder holds no
    suite file, the suites define no case at all (so a mistyped path in CI cannot pass), or a case cannot
    fit its device's window · 3 an engine could not be set up for the preflight.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "validate", flags: usage.flags)
        let json = args.flag(Self.json)
        let profile = try SettingOverrideFlags.profile(args, command: "validate")
        var paths = args.positionals
        if paths.isEmpty { paths = try SuiteDiscovery.defaultPaths(command: "validate") }
        var checks = StreamedChecks()
        let output = json ? try ExpandedCasesFile() : nil
        // Cases stream past in batches, so a dataset of any size is checked in flat memory.
        let result = SuiteLoader.stream(paths: paths, overrides: profile?.patch ?? OptionsPatch()) { file, batch in
            checks.add(batch, of: file)
            output?.append(batch)
        }
        let accepted = Set(result.suites.map(\.file))
        let diagnostics = result.diagnostics + RunPipeline.foldersWithoutSuites(paths) + checks.recorded(in: accepted)
        for diagnostic in diagnostics { printError(diagnostic.description) }
        for warning in result.warnings { printError(warning.warningDescription) }
        let engineProblems = checks.engineLines(in: accepted)
        for line in engineProblems { printError(line) }
        var errors = diagnostics.count + engineProblems.count
        let count = result.streamedCaseCount
        if errors == 0 && count == 0 {
            printError("fmeval: error: the suites in \(paths.joined(separator: " ")) define no cases; add 'cases:' or a "
                + "'dataset:' ('fmeval run' would have nothing to run)")
            errors = 1
        }
        if errors == 0 && !checks.onDevices.isEmpty {
            errors += try preflight(checks.onDevices, paths: paths)
        }
        let files = result.files.count
        let summary = "\(files) suite\(files == 1 ? "" : "s"), \(count) case\(count == 1 ? "" : "s"), "
            + "\(errors) error\(errors == 1 ? "" : "s")"
        if let output, errors == 0 {
            try output.copyToStandardOutput()
            printError(summary)
        } else if json {
            printError(summary)
        } else {
            print(summary)
        }
        return errors == 0 ? ExitStatus.ok : ExitStatus.invalidInput
    }

    /// Prints each case's window need on its device: an error for a case that cannot fit, a note for one
    /// that expects to overflow, then a summary line; returns the number of errors.
    static func preflight(_ cases: [ExpandedCase], paths: [String]) throws -> Int {
        let needs = try ContextPreflight.needs(of: cases, request: RunRequest(paths: paths, resultsPath: ""))
        var (fit, overflow, expected) = (0, 0, 0)
        for need in needs {
            if need.fits {
                fit += 1
            } else if need.expectsOverflow {
                expected += 1
                printError("\(need.location): note: \(need.summary); the case expects contextSizeExceeded")
            } else {
                overflow += 1
                printError("\(need.location): error: \(need.summary); shorten its input or lower "
                    + "maximumResponseTokens, or run it on a device with a larger window")
            }
        }
        let devices = Set(needs.compactMap(\.device)).sorted().joined(separator: ", ")
        printError("preflight on \(devices): \(fit) of \(needs.count) cases fit their device's window, \(overflow) "
            + "cannot, \(expected) expected to overflow")
        return overflow
    }
}
