import Foundation
import Testing

private let baseCases = [ReportFixtureCase(caseID: "paris", passed: true), ReportFixtureCase(caseID: "london", passed: false),
                         ReportFixtureCase(caseID: "rome", passed: true)]
private let candidateCases = [ReportFixtureCase(caseID: "paris", passed: false), ReportFixtureCase(caseID: "london", passed: true),
                              ReportFixtureCase(caseID: "rome", passed: true), ReportFixtureCase(caseID: "oslo", passed: false)]

@Test func compareReportsRegressionsWritesReportsAndExitsOne() throws {
    let folder = try reportFixtureFolder(["base.json": reportFixtureJSON(baseCases), "new.json": reportFixtureJSON(candidateCases)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["compare", "base.json", "new.json", "--junit", "out/r.xml", "--html", "out/r.html", "--json", "out/c.json"],
                               directory: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.contains("Against the baseline: 1 regression, 1 new-failure, 1 fixed, 1 unchanged"))
    #expect(result.stdout.contains("regression   city-info/paris  (passed → failed)"))
    #expect(result.stdout.contains("new-failure  city-info/oslo  (– → failed)"))
    #expect(result.stdout.contains("A/B base.json (A) vs new.json (B) over 3 paired cases"))
    let html = try String(contentsOf: folder.appendingPathComponent("out/r.html"), encoding: .utf8)
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<script>alert(1)"))
    let xml = try String(contentsOf: folder.appendingPathComponent("out/r.xml"), encoding: .utf8)
    #expect(xml.contains("baseline: regression"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/c.json"))) as? [String: Any]
    #expect((json?["ab"] as? [[String: Any]])?.first?["pValue"] as? Double == 1.0)
}

@Test func compareWithoutRegressionsExitsZero() throws {
    let folder = try reportFixtureFolder(["a.json": reportFixtureJSON(baseCases), "b.json": reportFixtureJSON(baseCases)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["compare", "a.json", "b.json"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Against the baseline: 1 still-failing, 2 unchanged"))
}

@Test func compareRejectsBadInputWithFileAndJSONPath() throws {
    let broken = reportFixtureJSON(baseCases).replacingOccurrences(of: "\"gateHolds\": true", with: "\"gateHolds\": \"yes\"")
    let folder = try reportFixtureFolder(["a.json": reportFixtureJSON(baseCases), "bad.json": broken])
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = try runFMEval(["compare", "a.json", "bad.json"], directory: folder)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("bad.json: not a valid fmeval results document: at $.cases[0].gateHolds"))
    let missing = try runFMEval(["compare", "a.json", "nope.json"], directory: folder)
    #expect(missing.status == 2 && missing.stderr.contains("nope.json: cannot read the results file"))
    let count = try runFMEval(["compare", "a.json"], directory: folder)
    #expect(count.status == 2 && count.stderr.contains("a.json holds one configuration only"))
    let many = try runFMEval(["compare", "a.json", "a.json", "a.json"], directory: folder)
    #expect(many.status == 2 && many.stderr.contains("got 3 files"))
}

@Test func mergeCombinesShardsIntoOneResultsFile() throws {
    let shard1 = reportFixtureJSON([baseCases[0], baseCases[2]], shard: "1/2")
    let shard2 = reportFixtureJSON([baseCases[1]], shard: "2/2")
    let folder = try reportFixtureFolder(["s1.json": shard1, "s2.json": shard2])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["merge", "s1.json", "s2.json", "--json", "merged.json", "--junit", "merged.xml"], directory: folder)
    #expect(result.status == 1, "a merged case fails its gate: \(result.stderr)")
    #expect(result.stdout.contains("3 cases, 2 passed, 1 failed"))
    let merged = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("merged.json"))) as? [String: Any]
    let ids = (merged?["cases"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    #expect(ids == ["city-info/paris", "city-info/rome", "city-info/london"])
    #expect((merged?["run"] as? [String: Any])?["shard"] == nil)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged.xml").path))
}

@Test func mergeToStandardOutputKeepsItParseableAndWarnsAboutGaps() throws {
    let folder = try reportFixtureFolder(["s1.json": reportFixtureJSON([baseCases[0]], shard: "1/3")])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["merge", "s1.json"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning: merge: shards 2/3, 3/3 missing"))
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(parsed?["version"] as? Int == 2, "version 1 inputs merge into a current (version 2) document")
}

@Test func mergeRejectsOverlappingShardsAndMixedModels() throws {
    let folder = try reportFixtureFolder(["a.json": reportFixtureJSON(baseCases), "b.json": reportFixtureJSON(baseCases),
                                          "c.json": reportFixtureJSON([ReportFixtureCase(caseID: "x", passed: true)], model: "other")])
    defer { try? FileManager.default.removeItem(at: folder) }
    let overlap = try runFMEval(["merge", "a.json", "b.json", "--json", "m.json"], directory: folder)
    #expect(overlap.status == 2 && overlap.stderr.contains("city-info/paris has results in both a.json and b.json"))
    let mixed = try runFMEval(["merge", "a.json", "c.json", "--json", "m.json"], directory: folder)
    #expect(mixed.status == 2 && mixed.stderr.contains("merge only shards of one engine and model"))
    let none = try runFMEval(["merge"], directory: folder)
    #expect(none.status == 2)
}

@Test func compareOneFileComparesItsVariants() throws {
    var cases: [ReportFixtureCase] = []
    for index in 0..<6 {
        cases.append(ReportFixtureCase(caseID: "c\(index)", variant: "terse", passed: true))
        cases.append(ReportFixtureCase(caseID: "c\(index)", variant: "verbose", passed: index < 1))
    }
    let folder = try reportFixtureFolder(["ab.json": reportFixtureJSON(cases)])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["compare", "ab.json", "--json", "ab-out.json"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("A/B terse (A) vs verbose (B) over 6 paired cases"))
    #expect(result.stdout.contains("McNemar exact p = 0.0625 (not significant at 5%)"))
    #expect(result.stdout.contains("\n  a difference this size needs about 7 paired cases; you have 6\n"))
    #expect(result.stdout.contains("flipped city-info/c5: passed → failed"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("ab-out.json"))) as? [String: Any]
    #expect((json?["ab"] as? [[String: Any]])?.count == 1)
}
