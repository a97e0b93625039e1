import Foundation
import Testing

private let cases = [ReportFixtureCase(caseID: "paris", passed: true), ReportFixtureCase(caseID: "london", passed: false)]

@Test func reportPrintsTheSummaryOfAResultsFile() throws {
    let folder = try reportFixtureFolder(["results.json": reportFixtureJSON(cases)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["report", "results.json"], directory: folder)
    #expect(result.status == 1, "the results hold a failing case: \(result.stderr)")
    #expect(result.stdout.contains("2 cases, 1 passed, 1 failed"))
    #expect(result.stdout.contains("city-info/london"))
    #expect(!result.stdout.contains("junit:") && !result.stdout.contains("html:"))
    let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(written == ["results.json"], "report without flags writes nothing: \(written)")
}

@Test func reportWritesJUnitAndHTMLLikeRunDoes() throws {
    let passing = [ReportFixtureCase(caseID: "paris", passed: true)]
    let folder = try reportFixtureFolder(["results.json": reportFixtureJSON(passing)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["report", "results.json", "--junit", "out/junit.xml", "--html=out/report.html"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("junit: out/junit.xml") && result.stdout.contains("html: out/report.html"))
    let xml = try String(contentsOf: folder.appendingPathComponent("out/junit.xml"), encoding: .utf8)
    #expect(xml.contains("<testcase name=\"paris\" classname=\"city-info\""))
    let html = try String(contentsOf: folder.appendingPathComponent("out/report.html"), encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("All gates hold") && html.contains("city-info/paris"))
}

@Test func reportRejectsMissingAndInvalidFilesWithTheirLocation() throws {
    let broken = reportFixtureJSON(cases).replacingOccurrences(of: "\"gateHolds\": true", with: "\"gateHolds\": \"yes\"")
    let folder = try reportFixtureFolder(["bad.json": broken, "truncated.json": "{\"version\": 1,\n \"run\": {"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = try runFMEval(["report", "nope.json"], directory: folder)
    #expect(missing.status == 2 && missing.stderr.contains("report: nope.json: cannot read the results file"), "\(missing.stderr)")
    let bad = try runFMEval(["report", "bad.json", "--html", "r.html"], directory: folder)
    #expect(bad.status == 2 && bad.stderr.contains("bad.json: not a valid fmeval results document: at $.cases[0].gateHolds"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.html").path))
    let truncated = try runFMEval(["report", "truncated.json"], directory: folder)
    #expect(truncated.status == 2 && truncated.stderr.contains("truncated.json: not valid JSON"), "\(truncated.stderr)")
    #expect(truncated.stderr.contains("line 2, column"), "names the line: \(truncated.stderr)")
    let none = try runFMEval(["report"], directory: folder)
    #expect(none.status == 2 && none.stderr.contains("give the results file"))
    let two = try runFMEval(["report", "bad.json", "nope.json"], directory: folder)
    #expect(two.status == 2 && two.stderr.contains("fmeval merge"))
    let flag = try runFMEval(["report", "bad.json", "--jnit", "x.xml"], directory: folder)
    #expect(flag.status == 2 && flag.stderr.contains("did you mean --junit?"), "\(flag.stderr)")
}

@Test func helpReportDescribesTheCommand() throws {
    let result = try runFMEval(["help", "report"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("USAGE: fmeval report RESULTS.json [--junit FILE] [--html FILE]"))
    let overview = try runFMEval(["--help"])
    #expect(overview.stdout.contains("  report "))
}
