import Foundation
import Testing
import FMCore

/// `fmeval history` and the run history written by `fmeval run` and `merge` (docs/history.md).
@Suite struct HistoryCLITests {
    /// Runs `fmeval run SUITE --json FOLDER/NAME` (history beside it unless `extra` says otherwise).
    func run(_ suite: String, _ folder: URL, _ name: String = "results.json", _ extra: [String] = []) throws -> CLIResult {
        try runFMEval(["run", suite, "--json", folder.appendingPathComponent(name).path] + extra, environment: ["CI": "true"])
    }

    @Test func runsAppendBesideTheResultsAndHistoryListsThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let green = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"yes\"")], in: folder)
        let broken = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"no\"")], in: folder, name: "broken.yaml")
        let history = folder.appendingPathComponent("history.sqlite").path
        #expect(try run(green, folder).status == 0)
        #expect(try run(green, folder).status == 0)
        let third = try run(broken, folder, "results.json", ["-v"])
        #expect(third.status == 1)
        #expect(third.stdout.contains("Regressions (run history \(history)): 1 case failing after passing before"),
                "-v lists the history's regressions: \(third.stdout)")
        #expect(third.stdout.contains("  gate/fragile: failing since run #3 "))
        #expect(third.stdout.contains("; last passed in run #2 "))

        let listed = try runFMEval(["history", "--history", history])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("history \(history): 3 runs, newest first\n"))
        let rows = listed.stdout.split(separator: "\n").dropFirst(2)
        #expect(rows.map { String($0.prefix(3)) } == ["#3 ", "#2 ", "#1 "])
        #expect(rows.first?.contains("50.0%") == true && rows.last?.contains("100.0%") == true)

        let trend = try runFMEval(["history", "trend", "gate/fragile", "--history", history, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(trend.stdout.utf8)) as? [String: Any])
        #expect((object["points"] as? [[String: Any]])?.map { $0["status"] as? String } == ["passed", "passed", "failed"])
        #expect((object["failingSince"] as? [String: Any])?["run"] as? Int == 3)
        #expect((object["lastPass"] as? [String: Any])?["run"] as? Int == 2)

        let flips = try runFMEval(["history", "flips", "--history", history])
        #expect(flips.stdout.contains("Status changes from run #2") && flips.stdout.contains("gate/fragile  passed  failed  regression"))
        let suites = try runFMEval(["history", "suites", "--history", history])
        #expect(suites.stdout.contains("gate:") && suites.stdout.contains("#3   "))
        let flaky = try runFMEval(["history", "flaky", "--history", history])
        #expect(flaky.stdout.hasPrefix("Cases whose status changed with an unchanged definition over the last 30 runs: 0"),
                "the suite file changed, so fragile's definition changed: \(flaky.stdout)")
    }

    @Test func noHistorySkipsRecordingAndBaselineFromHistoryEqualsTheFileBaseline() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let green = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"yes\""), ("known-bad", "\"no\"")], in: folder)
        let broken = try reportGateSuite([("steady", "\"yes\""), ("fragile", "\"no\""), ("known-bad", "\"no\"")], in: folder, name: "broken.yaml")
        let history = folder.appendingPathComponent("shared.sqlite").path
        #expect(try run(green, folder, "base.json", ["--history", history]).status == 1)
        #expect(try run(green, folder, "skipped.json", ["--no-history"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("history.sqlite").path))

        let baseFile = folder.appendingPathComponent("base.json").path
        let viaFile = try run(broken, folder, "a.json", ["--no-history", "--baseline", baseFile, "-v"])
        let viaHistory = try run(broken, folder, "b.json",
                                 ["--no-history", "--history", history, "--baseline", "history:last", "-v"])
        let table = { (text: String) in text.split(separator: "\n").drop { !$0.hasPrefix("Against the baseline") }.joined(separator: "\n") }
        #expect(table(viaHistory.stdout).contains("regression     gate/fragile  (passed → failed; the case changed)"), "\(viaHistory.stdout)\(viaHistory.stderr)")
        #expect(table(viaHistory.stdout).replacingOccurrences(of: "b.json", with: "a.json") == table(viaFile.stdout))
        #expect(try runFMEval(["history", "--history", history]).stdout.contains(": 1 run, newest first"))

        let gate = try run(broken, folder, "c.json", ["--history", history, "--baseline", "history:1", "--fail-on-regression"])
        #expect(gate.status == 1 && gate.stdout.contains("\n  REGRESSED gate/fragile — "), "\(gate.stdout)")
        #expect(gate.stdout.contains("History (\(history)): 1 case failing after passing in an earlier run: gate/fragile"))
        #expect(gate.stdout.hasSuffix("Gate failed: 1 case regressed against the baseline (exit 1).\n"))
        let missing = try run(green, folder, "d.json", ["--history", history, "--baseline", "history:last-passing"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--baseline history:last-passing: no run in \(history) held every gate"))
    }

    @Test func aCorruptHistoryIsAWarningAndTheResultsAreStillWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let green = try reportGateSuite([("steady", "\"yes\"")], in: folder)
        let history = folder.appendingPathComponent("history.sqlite")
        try Data("not a database, just text that is long enough to be read as a header page\n".utf8).write(to: history)
        let result = try run(green, folder)
        #expect(result.status == 0, "a history failure does not change the run's exit code: \(result.stderr)")
        #expect(result.stderr.contains("fmeval: warning: history \(history.path): not a usable SQLite database (file is not a database)"))
        #expect(result.stderr.contains("the run is not in it, but its results are in \(folder.appendingPathComponent("results.json").path)"))
        #expect(try Results(path: folder.appendingPathComponent("results.json").path).statuses == ["steady": "passed"])

        let query = try runFMEval(["history", "--history", history.path])
        #expect(query.status == 2 && query.stderr.contains("move it aside"))
        let absent = try runFMEval(["history", "--history", folder.appendingPathComponent("none.sqlite").path])
        #expect(absent.status == 2 && absent.stderr.contains("no such file"))
        let unknown = try runFMEval(["history", "trnd", "--history", history.path])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown query 'trnd' (did you mean 'trend'?)"))
    }

    @Test func twoProcessesAppendingConcurrentlyLoseNoRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = try reportGateSuite((0..<20).map { ("case-\($0)", $0 % 4 == 0 ? "\"no\"" : "\"yes\"") }, in: folder)
        let history = folder.appendingPathComponent("shared.sqlite").path
        let statuses = Locked<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<4 {
                let status = (try? run(suite, folder, "w\(writer)-\(index).json", ["--history", history]).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 1, count: 8))
        let runs = try runFMEval(["history", "runs", "--history", history, "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 8)
        #expect(list.allSatisfy { $0["total"] as? Int == 20 && $0["gatesFailed"] as? Int == 5 })
    }

    @Test func mergeRecordsTheMergedRunAndPruneKeepsTheNewest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = try reportGateSuite((0..<6).map { ("case-\($0)", "\"yes\"") }, in: folder)
        for shard in 1...2 { #expect(try run(suite, folder, "shard-\(shard).json", ["--shard", "\(shard)/2", "--no-history"]).status == 0) }
        let merged = folder.appendingPathComponent("merged.json").path
        let merge = try runFMEval(["merge", folder.appendingPathComponent("shard-1.json").path, folder.appendingPathComponent("shard-2.json").path,
                                   "--json", merged])
        let history = folder.appendingPathComponent("history.sqlite").path
        #expect(merge.status == 0 && merge.stdout.contains("history: \(history)"), "\(merge.stdout)\(merge.stderr)")
        #expect(try run(suite, folder).status == 0)
        #expect(try runFMEval(["history", "--history", history, "--json"]).stdout.components(separatedBy: "\"total\" : 6").count == 3)
        let prune = try runFMEval(["history", "prune", "--keep", "1", "--history", history])
        #expect(prune.status == 0 && prune.stdout.contains("removed 1 run"))
        let badDate = try runFMEval(["history", "prune", "--before", "yesterday", "--history", history])
        #expect(badDate.status == 2 && badDate.stderr.contains("--before expects a date YYYY-MM-DD"))
        let both = try runFMEval(["history", "prune", "--history", history])
        #expect(both.status == 2 && both.stderr.contains("exactly one of --keep N and --before DATE"))
    }
}

/// Shards that wrote one history are replaced there by their merge (each case counts once); the merge
/// prints the A/B table and lists the cases in the order one run writes them.
@Test func aMergeOfShardsInOneHistoryCountsEachCaseOnceAndShowsTheAB() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var text = "suite: ab\nengine: scripted\nvariants: [ { name: a }, { name: b } ]\ncases:\n"
    for index in 0..<8 {
        text += "  - { id: c\(index), prompt: p, script: [ { text: yes } ], expect: { contains: yes } }\n"
    }
    try text.write(to: folder.appendingPathComponent("ab.yaml"), atomically: true, encoding: .utf8)
    let history = folder.appendingPathComponent("shared.sqlite").path
    for shard in 1...2 {
        let run = try runFMEval(["run", "ab.yaml", "--shard", "\(shard)/2", "--json", "shard-\(shard).json",
                                 "--history", history], directory: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }
    let single = try runFMEval(["run", "ab.yaml", "--json", "single.json", "--no-history"], directory: folder)
    #expect(single.status == 0)
    let merge = try runFMEval(["merge", "shard-1.json", "shard-2.json", "--json", "merged.json", "--history", history],
                              directory: folder)
    #expect(merge.status == 0 && merge.stdout.contains("\nA/B ab: "), "\(merge.stdout)\(merge.stderr)")
    let runs = try runFMEval(["history", "runs", "--history", history, "--json"])
    let list = try #require(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
    #expect(list.count == 1 && list.first?["total"] as? Int == 16, "\(runs.stdout)")
    let merged = try Results(path: folder.appendingPathComponent("merged.json").path)
    let one = try Results(path: folder.appendingPathComponent("single.json").path)
    let ids = { (results: Results) in results.cases.map { $0["id"] as? String ?? "" } }
    #expect(ids(merged) == ids(one), "\(ids(merged))")
}
