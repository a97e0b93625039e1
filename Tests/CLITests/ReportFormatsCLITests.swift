import FMReport
import FMResults
import Foundation
import Testing

/// The commands that write reports, with what each has for the formats.
private let reportCommands: [(name: String, provides: Set<ReportFormat.Needs>)] = [
    ("run", [.results]), ("report", [.results]), ("merge", [.results]), ("compare", [.results, .comparison]),
]

/// `--NAME out/NAME.report` for each format, and where each one's file will be.
private func formatArguments(_ formats: [ReportFormat]) -> [String] {
    formats.flatMap { [$0.flag, "out/\($0.name).report"] }
}

/// Checks that every format of `formats` was written to `out/NAME.report` in `folder` with exactly the
/// bytes the registry renders for `input`, and announced as `NAME: FILE`.
private func expectWritten(_ formats: [ReportFormat], input: ReportInput, in folder: URL, output: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    for format in formats {
        let path = "out/\(format.name).report"
        let written = try Data(contentsOf: folder.appendingPathComponent(path))
        #expect(written == (try format.render(input)), "\(format.name) bytes", sourceLocation: sourceLocation)
        #expect(output.contains("\(format.name): \(path)"), "\(format.name) announced: \(output)", sourceLocation: sourceLocation)
    }
}

@Test func everyReportCommandsHelpListsEachFormatItCanWrite() throws {
    #expect(ReportFormats.all.count >= 3)
    for (command, provides) in reportCommands {
        let help = try runFMEval(["help", command])
        #expect(help.status == 0)
        for format in ReportFormats.all {
            // A command may have a flag of its own by a format's name (`run --json` is the results file),
            // so the option line is recognised by the flag and the format's help together.
            let offered = provides.contains(format.needs)
            let lines = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  \(format.flag) FILE ") && $0.hasSuffix(format.help) }
            #expect(lines.count == (offered ? 1 : 0), "\(command) --help lists \(format.flag) FILE \(offered ? "once" : "not at all")")
            #expect(offered == help.stdout.contains(format.help), "\(command) --help has \(format.name)'s help line: \(offered)")
            if offered { #expect(help.stdout.contains("[\(format.flag) FILE]"), "\(command) USAGE names \(format.flag)") }
        }
    }
}

@Test func reportAndMergeWriteEveryResultsFormatThroughTheRegistry() throws {
    let cases = ["c0", "c1"].flatMap { id in
        [ReportFixtureCase(suite: "sentiment", caseID: id, variant: "plain", passed: true),
         ReportFixtureCase(suite: "sentiment", caseID: id, variant: "terse", passed: id == "c1")]
    }
    let folder = try reportFixtureFolder(["results.json": reportFixtureJSON(cases)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let formats = ReportFormats.available(providing: [.results])
    let loaded = try ResultsFile.load(folder.appendingPathComponent("results.json").path)
    let input = ReportInput(results: loaded, comparisons: ABComparison.variants(of: loaded))
    #expect(input.comparisons.count == 1, "the fixture has an A/B comparison for the reports to show")

    let report = try runFMEval(["report", "results.json"] + formatArguments(formats), directory: folder)
    #expect(report.status == 1, "a case fails: \(report.stderr)")
    try expectWritten(formats, input: input, in: folder, output: report.stdout)

    // --no-history: the reports are compared with ones rendered without a run history's trends.
    let merge = try runFMEval(["merge", "results.json", "--json", "merged.json", "--no-history"] + formatArguments(formats), directory: folder)
    #expect(merge.status == 1, "a case fails: \(merge.stderr)")
    let merged = try ResultsFile.load(folder.appendingPathComponent("merged.json").path)
    try expectWritten(formats, input: ReportInput(results: merged, comparisons: ABComparison.variants(of: merged)),
                      in: folder, output: merge.stdout)
}

@Test func compareWritesEveryFormatThroughTheRegistry() throws {
    let base = [ReportFixtureCase(caseID: "paris", passed: true), ReportFixtureCase(caseID: "london", passed: true)]
    let now = [ReportFixtureCase(caseID: "paris", passed: true), ReportFixtureCase(caseID: "london", passed: false)]
    let folder = try reportFixtureFolder(["base.json": reportFixtureJSON(base), "now.json": reportFixtureJSON(now)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let formats = ReportFormats.available(providing: [.results, .comparison])
    #expect(formats.count == ReportFormats.all.count)
    let result = try runFMEval(["compare", "base.json", "now.json"] + formatArguments(formats), directory: folder)
    #expect(result.status == 1, "london regressed: \(result.stderr)")
    let old = try ResultsFile.load(folder.appendingPathComponent("base.json").path)
    let new = try ResultsFile.load(folder.appendingPathComponent("now.json").path)
    let input = ReportInput(results: new, baseline: BaselineComparison(baseline: old, current: new),
                            comparisons: [ABComparison.files(base: old, baseName: "base.json", candidate: new, candidateName: "now.json")])
    try expectWritten(formats, input: input, in: folder, output: result.stdout)
}

@Test func runWritesEveryResultsFormatThroughTheRegistryAfterCheckingItsPath() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"no\"")], in: folder)
    let formats = ReportFormats.available(providing: [.results])
    let first = try runFMEval(["run", suite, "--json", "base.json"], environment: ["CI": "true"], directory: folder)
    #expect(first.status == 1, "fragile fails: \(first.stderr)")
    // --no-history: the reports are compared with ones rendered without a run history's trends.
    let result = try runFMEval(["run", suite, "--json", "now.json", "--baseline", "base.json", "--no-history"] + formatArguments(formats),
                               environment: ["CI": "true"], directory: folder)
    #expect(result.status == 1, "fragile fails: \(result.stderr)")
    let old = try ResultsFile.load(folder.appendingPathComponent("base.json").path)
    let new = try ResultsFile.load(folder.appendingPathComponent("now.json").path)
    let input = ReportInput(results: new, baseline: BaselineComparison(baseline: old, current: new),
                            comparisons: ABComparison.variants(of: new))
    try expectWritten(formats, input: input, in: folder, output: result.stdout)

    for format in formats {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("taken.report"), withIntermediateDirectories: true)
        let blocked = try runFMEval(["run", suite, "--json", "again.json", format.flag, "taken.report"],
                                    environment: ["CI": "true"], directory: folder)
        #expect(blocked.status == 2, "\(format.flag) is checked before the run: \(blocked.stderr)")
        #expect(blocked.stderr.contains("\(format.flag) taken.report: taken.report is a folder"), "\(blocked.stderr)")
        #expect(!blocked.stdout.contains("fmeval run:"), "nothing ran")
    }
}
