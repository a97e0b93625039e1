import Foundation
import Testing

@Test func runWritesValidJUnitAndHTMLAndPrintsLinePerCaseInCI() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let junit = folder.appendingPathComponent("out/junit.xml").path
    let html = folder.appendingPathComponent("out/report.html").path
    let (result, _) = try runSuite([fixture("repeats.yaml"), "--junit", junit, "--html", html], in: folder)
    #expect(result.status == 3, "a case errors: \(result.stderr)")
    #expect(result.stdout.contains("FAIL  repeats/flaky-gate-fails  2/4"))
    #expect(result.stdout.contains("FLAKY repeats/flaky-gate-holds  3/4"))
    #expect(result.stdout.contains("2 cases failing the gate:"))
    #expect(result.stdout.contains("ERROR repeats/errors-are-not-failures"))
    #expect(result.stdout.contains("junit: \(junit)") && result.stdout.contains("html: \(html)"))
    if let lint = try reportXmllint(junit) { #expect(lint.status == 0, "\(lint.output)") }
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<testcase name=\"flaky-gate-fails\" classname=\"repeats\""))
    #expect(xml.contains("<error message="))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("repeats/always-passes") && page.contains("Content-Security-Policy"))
}

@Test func failOnRegressionExitsOneOnlyForRegressions() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = folder.appendingPathComponent("base.json").path
    let green = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"yes\""), ("known-bad", "\"no\"")], in: folder)
    let first = try runFMEval(["run", green, "--json", base], environment: ["CI": "true"])
    #expect(first.status == 1, "known-bad fails: \(first.stderr)")

    // Same failures as the baseline: the run's own gate says 1, the regression gate says 0.
    let sameJUnit = folder.appendingPathComponent("same.xml").path
    let same = try runFMEval(["run", green, "--json", folder.appendingPathComponent("same.json").path,
                              "--baseline", base, "--fail-on-regression", "--junit", sameJUnit],
                             environment: ["CI": "true"])
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    #expect(same.stdout.contains("Against the baseline: 1 still-failing, 2 unchanged"))
    let sameXML = try String(contentsOfFile: sameJUnit, encoding: .utf8)
    #expect(!sameXML.contains("<failure") && sameXML.contains("failures=\"0\" errors=\"0\" skipped=\"1\""),
            "exit 0, so no JUnit failure: \(sameXML)")
    #expect(sameXML.contains("<skipped message=\"old failure (failed in the baseline too): "))

    let broken = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"no\""), ("known-bad", "\"no\"")], in: folder, name: "broken.yaml")
    let nowJUnit = folder.appendingPathComponent("now.xml").path
    let regressed = try runFMEval(["run", broken, "--json", folder.appendingPathComponent("now.json").path,
                                   "--baseline", base, "--fail-on-regression", "--junit", nowJUnit],
                                  environment: ["CI": "true"])
    #expect(regressed.status == 1)
    let nowXML = try String(contentsOfFile: nowJUnit, encoding: .utf8)
    #expect(nowXML.contains("failures=\"1\" errors=\"0\" skipped=\"1\"")
            && nowXML.contains("<failure message=\"REGRESSED: "), "\(nowXML)")
    if let lint = try reportXmllint(nowJUnit) { #expect(lint.status == 0, "\(lint.output)") }
    #expect(regressed.stdout.contains("Against the baseline: 1 regression, 1 still-failing, 1 unchanged"))
    let closing = regressed.stdout.split(separator: "\n").suffix(6).map(String.init)
    let expected = ["3 cases, 1 passed, 2 failed", "1 case failing the gate:", "  REGRESSED gate/fragile — ",
                    "1 case still failing as in the baseline", "  FAIL gate/known-bad — ",
                    "Gate failed: 1 case regressed against the baseline (exit 1)."]
    #expect(zip(closing, expected).allSatisfy { $0.hasPrefix($1) } && closing.count == expected.count,
            "the regression first, then the old failure, then the verdict, last: \(regressed.stdout)")

    let quiet = try runFMEval(["run", broken, "--json", folder.appendingPathComponent("quiet.json").path,
                               "--baseline", base, "--fail-on-regression", "-q"], environment: ["CI": "true"])
    #expect(quiet.status == 1 && quiet.stdout.contains("REGRESSED gate/fragile"), "\(quiet.stdout)")
    #expect(!quiet.stdout.contains("gate/known-bad"), "-q prints only what fails the gate: \(quiet.stdout)")

    let flagOnly = try runFMEval(["run", green, "--fail-on-regression"], environment: ["CI": "true"])
    #expect(flagOnly.status == 2 && flagOnly.stderr.contains("--fail-on-regression needs --baseline FILE"))
    let badBaseline = try runFMEval(["run", green, "--baseline", folder.appendingPathComponent("nope.json").path],
                                    environment: ["CI": "true"])
    #expect(badBaseline.status == 2 && badBaseline.stderr.contains("--baseline"))
    #expect(!badBaseline.stdout.contains("PASS"), "a bad baseline stops the run before anything executes")
}

@Test func shardsPartitionTheRunAndMergeBackToIt() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let answers = (0..<12).map { ("case-\($0)", $0 % 4 == 0 ? "\"no\"" : "\"yes\"") }
    let suite = try reportGateSuite(answers, in: folder)
    var shardFiles: [String] = []
    var seen: [String] = []
    for index in 1...3 {
        let path = folder.appendingPathComponent("shard-\(index).json").path
        let result = try runFMEval(["run", suite, "--shard", "\(index)/3", "--json", path], environment: ["CI": "true"])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        let ids = try Results(path: path).cases.compactMap { $0["id"] as? String }
        seen += ids
        shardFiles.append(path)
    }
    #expect(seen.count == 12 && Set(seen).count == 12, "disjoint and complete: \(seen)")
    let merged = folder.appendingPathComponent("merged.json").path
    let merge = try runFMEval(["merge"] + shardFiles + ["--json", merged], directory: folder)
    #expect(merge.status == 1, "three cases fail: \(merge.stderr)")
    let results = try Results(path: merged)
    #expect(results.cases.count == 12)
    #expect(results.summary["failed"] as? Int == 3)
    let bad = try runFMEval(["run", suite, "--shard", "4/3"], environment: ["CI": "true"])
    #expect(bad.status == 2 && bad.stderr.contains("--shard: the shard number must be between 1 and 3"))
}
