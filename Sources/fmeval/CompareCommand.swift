import Foundation
import FMResults
import FMReport
import FMRun

/// `fmeval compare BASE.json CANDIDATE.json`: the baseline table and a paired A/B comparison of two result files.
struct CompareCommand: Command {
    static let path = ["compare"]
    static let summary = "Compare two results files: regressions, fixes, paired A/B with McNemar's test"
    static let help = """
    USAGE: fmeval compare BASE.json CANDIDATE.json [--html FILE] [--junit FILE] [--json FILE]
           fmeval compare RESULTS.json [--html FILE] [--json FILE]

    With two files: classifies every case of CANDIDATE against BASE (regression, new-failure, fixed,
    still-failing, unchanged, added, removed, skipped), prints that table and a paired A/B comparison
    over the cases both ran: the 2×2 table, pass rates with Wilson 95% intervals, McNemar's exact
    p-value and the cases that flipped. Cases are paired by their stable id (suite/case@variant).

    With one file run with several variants: the same A/B comparison of each variant against the
    first, pairing cases by suite and case id.

    OPTIONS:
      --html FILE    write the candidate's HTML report with the baseline and A/B sections
      --junit FILE   write the candidate's JUnit XML, each failure noting its baseline change
      --json FILE    write the comparison as JSON ({"baseline": …, "ab": [ … ]})

    Exit codes: 0 no regressions or new failures · 1 a case regressed or newly fails · 2 invalid input
    (an unreadable or invalid results file, fewer than two variants in one file, a bad flag) · 3 a
    report could not be written.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        var args = Arguments(arguments, command: "compare")
        let html = try args.option("--html")
        let junit = try args.option("--junit")
        let json = try args.option("--json")
        let files = try args.finish()
        switch files.count {
        case 1: return try compareVariants(files[0], html: html, junit: junit, json: json)
        case 2: break
        default:
            throw CLIError.invalidInput("compare: give BASE.json CANDIDATE.json, or one results file run with variants (got \(files.count) files); see 'fmeval help compare'")
        }
        let base = try ReportFlags.load(files[0], flag: "compare:")
        let candidate = try ReportFlags.load(files[1], flag: "compare:")
        let baseline = BaselineComparison(baseline: base, current: candidate)
        let ab = ABComparison.files(base: base, baseName: files[0], candidate: candidate, candidateName: files[1])
        if base.run.fingerprint.engine != candidate.run.fingerprint.engine {
            print("note: the runs used different engines or models (\(base.run.fingerprint.engine) vs \(candidate.run.fingerprint.engine))")
        }
        print(TerminalText.baselineTable(baseline))
        print(TerminalText.abTable(ab))
        try writeJSON(ComparisonDocument(baseline: baseline, ab: [ab]), to: json)
        try ReportFlags.write(candidate, baseline: baseline, comparisons: [ab], junit: junit, html: html)
        return baseline.hasRegressions ? ExitCode.failed : ExitCode.ok
    }

    /// The A/B comparison of the variants inside one results file.
    private static func compareVariants(_ file: String, html: String?, junit: String?, json: String?) throws -> Int32 {
        let run = try ReportFlags.load(file, flag: "compare:")
        let comparisons = ABComparison.variants(of: run)
        guard !comparisons.isEmpty else {
            throw CLIError.invalidInput("compare: \(file) holds one configuration only per suite (A/B compares the variants of one suite); give two results files, or a run of a suite with two or more variants")
        }
        for comparison in comparisons { print(ABText.terminal(comparison)) }
        try writeJSON(ComparisonDocument(baseline: nil, ab: comparisons), to: json)
        try ReportFlags.write(run, baseline: nil, comparisons: comparisons, junit: junit, html: html)
        return ExitCode.ok
    }

    private static func writeJSON(_ document: ComparisonDocument, to path: String?) throws {
        guard let path else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try ResultsFile.writeReport(try encoder.encode(document), to: path)
        } catch let error as ReportError {
            throw CLIError.infrastructure(error.message)
        }
        print("json: \(path)")
    }
}

/// The JSON written by `fmeval compare --json`.
struct ComparisonDocument: Encodable {
    /// Every case's change against the base (two files only).
    var baseline: BaselineComparison?
    /// The paired A/B comparisons.
    var ab: [ABComparison]
}
