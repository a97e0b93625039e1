import FMCore
import Foundation
import FMResults
import FMReport
import FMRun

/// `fmeval compare BASE.json CANDIDATE.json`: the baseline table and a paired A/B comparison of two result files.
struct CompareCommand: Command {
    static let path = ["compare"]
    static let summary = "Compare two results files: regressions, fixes, paired A/B with McNemar's test"
    static let usage = CommandUsage("compare", "(BASE.json CANDIDATE.json | RESULTS.json)",
                             flags: ReportFlags.table(providing: formats))
    static let help = """
    \(usage.line)

    With two files: classifies every case of CANDIDATE against BASE (regression, new-failure, fixed,
    still-failing, unchanged, added, removed, skipped), prints that table and a paired A/B comparison
    over the cases both ran: the 2×2 table, pass rates with Wilson 95% intervals, McNemar's exact
    p-value and the cases that flipped. Cases are paired by their stable id (suite/case@variant).

    With one file run with several variants: the same A/B comparison of each variant against the
    first, pairing cases by suite and case id.

    Reports are made from CANDIDATE (or the one file), with the baseline and A/B sections: the HTML
    report shows them, and each JUnit failure notes its baseline change.

    OPTIONS:
    \(usage.flags.list(column: 17))

    Exit codes: 0 no regressions or new failures · 1 a case regressed or newly fails · 2 invalid input
    (an unreadable or invalid results file, fewer than two variants in one file, a bad flag) · 3 a
    report could not be written.
    """

    /// What `compare` has for the report formats: the candidate's results and their comparison.
    static let formats: Set<ReportFormat.Needs> = [.results, .comparison]

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "compare", flags: usage.flags)
        let outputs = ReportFlags.parseOutputs(args, providing: formats)
        let files = args.positionals
        switch files.count {
        case 1: return try compareVariants(files[0], outputs: outputs)
        case 2: break
        default:
            throw Fault.invalidInput("compare: give BASE.json CANDIDATE.json, or one results file run with variants (got \(files.count) files); see 'fmeval help compare'")
        }
        let base = try ReportFlags.load(files[0], flag: "compare:")
        let candidate = try ReportFlags.load(files[1], flag: "compare:")
        let baseline = BaselineComparison(baseline: base, current: candidate)
        let ab = ABComparison.files(base: base, baseName: files[0], candidate: candidate, candidateName: files[1])
        if base.run.fingerprint.engine != candidate.run.fingerprint.engine {
            print("note: the runs used different engines or models (\(base.run.fingerprint.engine) vs \(candidate.run.fingerprint.engine))")
        }
        let (baseDetails, candidateDetails) = (base.run.fingerprint.engineDetails ?? [:], candidate.run.fingerprint.engineDetails ?? [:])
        let differing = Set(baseDetails.keys).union(candidateDetails.keys).sorted().filter { baseDetails[$0] != candidateDetails[$0] }
        if !differing.isEmpty {
            let pairs = differing.map { "\($0) \(baseDetails[$0] ?? "none") vs \(candidateDetails[$0] ?? "none")" }
            print("note: the runs' engines were set up differently (\(pairs.joined(separator: ", ")))")
        }
        print(TerminalText.baselineTable(baseline))
        print(TerminalText.abTable(ab))
        try ReportFlags.write(outputs, input: ReportInput(results: candidate, baseline: baseline, comparisons: [ab]))
        return baseline.hasRegressions ? ExitStatus.failed : ExitStatus.ok
    }

    /// The A/B comparison of the variants inside one results file.
    private static func compareVariants(_ file: String, outputs: [ReportOutput]) throws -> Int32 {
        let run = try ReportFlags.load(file, flag: "compare:")
        let comparisons = ABComparison.variants(of: run)
        guard !comparisons.isEmpty else {
            throw Fault.invalidInput("compare: \(file) holds one configuration only per suite (A/B compares the variants of one suite); give two results files, or a run of a suite with two or more variants")
        }
        for comparison in comparisons { print(ABText.terminal(comparison)) }
        try ReportFlags.write(outputs, input: ReportInput(results: run, comparisons: comparisons))
        return ExitStatus.ok
    }
}
