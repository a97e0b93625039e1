import Foundation
import Testing
import FMCore
import FMEvaluate
@testable import FMHistory
import FMReport
import FMResults

/// The store itself: saving, replacing, migrating, refusing bad files, concurrent writers, baselines.
@Suite struct HistoryStoreTests {
    @Test func savingTheSameRunIdAgainReplacesItsRows() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "c", passes: false)])
        try HistoryStore(path: path).save(run)
        run = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "c", passes: true)])
        let store = HistoryStore(path: path)
        try store.save(run)
        try store.save(run)
        #expect(try store.runs().count == 2)
        #expect(try store.trend(caseID: "s/c").points.map(\.status) == [.failed, .passed])
        let counts = try store.open().query("SELECT (SELECT count(*) FROM case_results), (SELECT count(*) FROM attempts)") { [$0.int(0), $0.int(1)] }
        #expect(counts.first == [2, 2])
    }

    /// Shards recorded in the history they are merged into count once: the merged run takes their place.
    @Test func aMergedRunReplacesItsShardsInTheHistory() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(path: path)
        var one = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "a", passes: true)])
        var two = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "b", passes: false)])
        one.run.id = "shard-one"
        two.run.id = "shard-two"
        let earlier = syntheticRun(day: 0, [SyntheticCase(suite: "s", caseID: "a", passes: false)])
        for run in [earlier, one, two] { try store.save(run) }
        let merged = try MergeResults.merge([("one.json", one), ("two.json", two)]).result
        try store.save(merged)
        try store.save(merged)
        #expect(try store.runs().map(\.runID).sorted() == [earlier.run.id, merged.run.id].sorted())
        #expect(try store.trend(caseID: "s/a").points.map(\.status) == [.failed, .passed])
        #expect(try store.trend(caseID: "s/b").points.map(\.status) == [.failed])
    }

    @Test func aRunWithACaseIDTwiceIsNotStored() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "c", passes: false),
                                        SyntheticCase(suite: "s", caseID: "c", passes: true)])
        #expect(throws: Fault.self) { try HistoryStore(path: path).save(run) }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is written for such a run")
    }

    @Test func attemptsKeepMetricsViolationKeywordsUsageAndDuration() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(path: path)
        try store.save(syntheticRun(day: 2, [SyntheticCase(suite: "s", caseID: "c", passes: true, flaky: true)]))
        let rows = try store.open().query("""
            SELECT a.attempt, a.status, t.text, coalesce(a.violations, 'NULL'), a.input_tokens, a.output_tokens,
                   a.duration_us
            FROM attempts a JOIN texts t ON t.id = a.metrics_ref ORDER BY a.attempt
            """) { row in (0..<7).map { column in row.text(Int32(column)) ?? "" } }
        #expect(rows.count == 2)
        #expect(rows[1][1] == "failed" && rows[1][2].contains("\"name\":\"equals\"") && rows[1][3] == "NULL")
        #expect(rows[0][4] == "10" && rows[0][5] == "1" && rows[0][6] == "2000")
        func violation(_ keyword: Violation.Keyword) -> Violation {
            Violation(path: "/a", keyword: keyword, expected: .init(kind: .null), actual: .init(kind: .null), message: "x")
        }
        #expect(HistoryWriter.violationCounts([violation(.required), violation(.required), violation(.type)]) == ["required": 2, "type": 1])
        #expect(try store.trend(caseID: "s/c").points.first?.status == .flaky)
    }

    @Test func aVersionOneFileIsMigratedForwardKeepingItsRuns() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try SQLiteDatabase(path: path, create: true)
        try old.execute(HistorySchema.version1)
        try old.execute("UPDATE schema_version SET version = 1")
        try old.execute("""
            INSERT INTO runs (run_id, started_at, recorded_at, engine, fingerprint, arguments, paths, total, passed, failed, flaky,
                              errored, known_issues, skipped, gates_failed, attempts)
            VALUES ('old-run', '2026-10-01T00:00:00Z', '2026-10-01T00:00:00Z', 'scripted', '{}', '[]', '[]', 1, 1, 0, 0, 0, 0, 0, 0, 1);
            INSERT INTO cases (case_key, suite, case_name) VALUES ('s/c', 's', 'c');
            INSERT INTO case_results (run, case_ref, status, gate_holds, fails_run, passes, pass_rate, tags, definition,
                                      reason, duration_ms)
            VALUES (1, 1, 'passed', 1, 0, 1, 1.0, '["smoke"]', 'def-0', 'ok', 1.25);
            INSERT INTO attempts (result, attempt, status, metrics, violations, input_tokens, output_tokens,
                                  duration_ms)
            VALUES (1, 0, 'passed', '[{"name":"equals"}]', '{}', 12, 3, 1.2),
                   (1, 1, 'failed', '[]', '{"type":1}', 12, 4, 0.5);
            """)
        let store = HistoryStore(path: path)
        try store.save(syntheticRun(day: 2, [SyntheticCase(suite: "s", caseID: "c", passes: false)]))
        #expect(try store.version(store.open()) == HistorySchema.currentVersion)
        #expect(try store.trend(caseID: "s/c").points.map(\.status) == [.passed, .failed])
        #expect(try store.trend(caseID: "s/c").points.map(\.definition) == ["def-0", "def-1"])
        #expect(try store.trend(caseID: "s/c").isRegression)
        let migrated = try store.open().query("""
            SELECT tags.text, reason.text, cr.duration_us FROM case_results cr
            JOIN texts tags ON tags.id = cr.tags_ref JOIN texts reason ON reason.id = cr.reason_ref WHERE cr.run = 1
            """) { row in (0..<3).map { column in row.text(Int32(column)) ?? "" }.joined(separator: " ") }
        #expect(migrated == ["[\"smoke\"] ok 1250"])
        let attempts = try store.open().query("""
            SELECT a.attempt, t.text, coalesce(a.violations, 'NULL'), a.output_tokens, a.duration_us,
                   coalesce(a.retries, 'NULL')
            FROM attempts a JOIN texts t ON t.id = a.metrics_ref WHERE a.run = 1 ORDER BY a.attempt
            """) { row in (0..<6).map { column in row.text(Int32(column)) ?? "" }.joined(separator: " ") }
        #expect(attempts == ["0 [{\"name\":\"equals\"}] NULL 3 1200 NULL", "1 [] {\"type\":1} 4 500 NULL"])
    }

    /// Texts a run repeats (tags, reasons, definitions, metrics) are stored once across runs, and a
    /// prune drops the ones no remaining run refers to.
    @Test func repeatedTextsAreStoredOnceAndPrunedWithTheirRuns() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(path: path)
        let cases = (0..<20).map { SyntheticCase(suite: "s", caseID: "c\($0)", passes: $0 % 2 == 0) }
        let gone = SyntheticCase(suite: "s", caseID: "gone", passes: true, definition: "def-gone")
        try store.save(syntheticRun(day: 1, [gone]))
        let count = { try store.open().query("SELECT count(*) FROM texts") { $0.int(0) }.first ?? -1 }
        let afterOne = try count()
        for day in 2...4 { try store.save(syntheticRun(day: day, cases)) }
        let afterFour = try count()
        for day in 5...7 { try store.save(syntheticRun(day: day, cases)) }
        #expect(try count() == afterFour, "the same texts again add nothing")
        #expect(try store.prune(keep: 6) == 1)
        #expect(try count() == afterFour - 1, "only def-gone belonged to the pruned run alone")
        #expect(afterOne == 4 && afterFour == 7)
        #expect(try store.trends(last: 10)["s/c3"]?.points.map(\.status) == Array(repeating: .failed, count: 6))
    }

    @Test func aNewerVersionIsRefusedWithAClearError() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try HistoryStore(path: path).save(syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "c", passes: true)]))
        try SQLiteDatabase(path: path, create: false).execute("UPDATE schema_version SET version = 99")
        let error = #expect(throws: Fault.self) {
            try HistoryStore(path: path).save(syntheticRun(day: 2, [SyntheticCase(suite: "s", caseID: "c", passes: true)]))
        }
        #expect(error?.message == "history \(path): schema version 99 is newer than this fmeval's \(HistorySchema.currentVersion); "
            + "use the fmeval that wrote it (or a newer one), or pass another --history FILE")
    }

    @Test func aCorruptFileOrAnotherDatabaseIsRefusedNamingTheFile() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        let corrupt = #expect(throws: Fault.self) {
            try HistoryStore(path: path).save(syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "c", passes: true)]))
        }
        #expect(corrupt?.message.hasPrefix("history \(path): not a usable SQLite database (file is not a database)") == true)
        #expect(corrupt?.message.contains("--no-history") == true && corrupt?.isInfrastructure == false)

        let other = folder.appendingPathComponent("other.sqlite").path
        try SQLiteDatabase(path: other, create: true).execute("CREATE TABLE notes (text TEXT)")
        let foreign = #expect(throws: Fault.self) { try HistoryStore(path: other).runs() }
        #expect(foreign?.message.contains("not an fmeval history") == true)
        let missing = #expect(throws: Fault.self) { try HistoryStore(path: folder.appendingPathComponent("none.sqlite").path, create: false).runs() }
        #expect(missing?.message.contains("no such file") == true)
    }

    @Test func twoConnectionsWritingAtOnceLoseNothing() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = (0..<50).map { SyntheticCase(suite: "s", caseID: "c\($0)", passes: $0 % 3 != 0) }
        let runs = (1...20).map { syntheticRun(day: 1 + $0 % 28, cases) }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for run in stride(from: writer, to: runs.count, by: 2) {
                do { try HistoryStore(path: path).save(runs[run]) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let store = HistoryStore(path: path, create: false)
        #expect(try store.runs().count == 20)
        #expect(try store.open().query("SELECT count(*) FROM case_results") { $0.int(0) }.first == 20 * 50)
        #expect(try store.open().query("PRAGMA journal_mode") { $0.text(0) }.first == "wal")
    }

    /// Connections opening one new file at once: each sees no schema or the whole one, never a database
    /// half created (CI once refused a history that another shard was creating as "not an fmeval history").
    @Test func connectionsOpeningANewHistoryAtOnceAllSeeOneSchema() throws {
        let (folder, _) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = Locked<[String]>([])
        for round in 0..<60 {
            let path = folder.appendingPathComponent("history-\(round).sqlite").path
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try HistoryStore(path: path).runs() } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
    }

    /// A history-dependent verdict (schema version 4) is recorded per case.
    @Test func aHistoryDependentVerdictIsRecorded() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var run = syntheticRun(day: 1, [SyntheticCase(suite: "s", caseID: "swayed", passes: true),
                                        SyntheticCase(suite: "s", caseID: "steady", passes: true)])
        run.cases[0].contamination = ContaminationResult(after: ["s/steady"], statuses: [.failed],
                                                         dependsOnHistory: true)
        let store = HistoryStore(path: path)
        try store.save(run)
        let flags = try store.open().query("""
            SELECT c.case_name, r.history_dependent FROM case_results r JOIN cases c ON c.id = r.case_ref
            ORDER BY c.case_name
            """) { "\($0.text(0) ?? "")=\($0.int(1))" }
        #expect(flags == ["steady=0", "swayed=1"])
    }

    @Test func aRecordedRunAsBaselineClassifiesLikeItsResultsFile() throws {
        let (folder, path) = try temporaryHistory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let runs = tenRuns()
        try record(runs, at: path)
        let file = folder.appendingPathComponent("day6.json").path
        try ResultsFile.write(runs[5].run, to: file)
        let store = HistoryStore(path: path, create: false)
        let fromHistory = try store.baseline(try store.run(named: "6"))
        // A run read back from the history has no per-attempt token usage (it stores no cached input
        // tokens), so the summary's token counts and hit rate are left out of the comparison.
        var expected = runs[5].run.summary
        expected.inputTokens = fromHistory.summary.inputTokens
        expected.cachedInputTokens = fromHistory.summary.cachedInputTokens
        expected.cacheHitRate = fromHistory.summary.cacheHitRate
        #expect(fromHistory.run.id == runs[5].run.run.id && fromHistory.summary == expected)
        let current = runs[9].run
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let viaFile = try encoder.encode(BaselineComparison(baseline: try ResultsFile.load(file), current: current))
        let viaHistory = try encoder.encode(BaselineComparison(baseline: fromHistory, current: current))
        #expect(String(decoding: viaHistory, as: UTF8.self) == String(decoding: viaFile, as: UTF8.self))
        #expect(BaselineComparison(baseline: fromHistory, current: current).entries(.regression).map(\.id) == ["a/breaks"])
    }
}

