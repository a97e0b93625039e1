import Foundation
import FMReport
import FMRun

/// `fmeval compare BASE.json CANDIDATE.json`: the baseline table and a paired A/B comparison of two result files.
struct CompareCommand: Command {
    static let path = ["compare"]
    static let summary = "Compare two results files: regressions, fixes, paired A/B with McNemar's test"
    static let help = """
    USAGE: fmeval compare BASE.json CANDIDATE.json [--html FILE] [--junit FILE] [--json FILE]

    Classifies every case of CANDIDATE against BASE (regression, new-failure, fixed, still-failing,
    unchanged, added, removed, skipped), prints that table and a paired A/B comparison over the cases
    both ran: the 2×2 table, pass rates with Wilson 95% intervals, McNemar's exact p-value and the
    cases that flipped. Cases are paired by their stable id (suite/case or suite/case@variant).

    OPTIONS:
      --html FILE    write the candidate's HTML report with the baseline and A/B sections
      --junit FILE   write the candidate's JUnit XML, each failure noting its baseline change
      --json FILE    write the comparison as JSON ({"baseline": …, "ab": …})

    Exit codes: 0 no regressions or new failures · 1 a case regressed or newly fails · 2 invalid input
    (an unreadable or invalid results file, a bad flag) · 3 a report could not be written.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        var args = Arguments(arguments, command: "compare")
        let html = try args.option("--html")
        let junit = try args.option("--junit")
        let json = try args.option("--json")
        let files = try args.finish()
        guard files.count == 2 else {
            throw CLIError.invalidInput("compare: give exactly two results files, BASE.json and CANDIDATE.json (got \(files.count)); see 'fmeval help compare'")
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
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(ComparisonDocument(baseline: baseline, ab: ab))
            do {
                try ResultsFile.writeReport(data, to: json)
            } catch let error as ReportError {
                throw CLIError.infrastructure(error.message)
            }
            print("json: \(json)")
        }
        try ReportFlags.write(candidate, baseline: baseline, comparisons: [ab], junit: junit, html: html)
        return baseline.hasRegressions ? ExitCode.failed : ExitCode.ok
    }
}

/// The JSON written by `fmeval compare --json`.
struct ComparisonDocument: Encodable {
    /// Every case's change against the base.
    var baseline: BaselineComparison
    /// The paired A/B comparison.
    var ab: ABComparison
}
