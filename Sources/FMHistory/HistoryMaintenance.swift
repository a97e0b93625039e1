import Foundation
import FMCore
import FMEvaluate
import FMResults

/// Retention (`fmeval history prune`) and a recorded run read back as a baseline.
extension HistoryStore {
    /// Deletes every run but the newest `keep`, then the cases and texts no run holds any more; returns the
    /// runs deleted.
    public func prune(keep: Int) throws -> Int {
        try prune(where: "id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?)", [.int(max(0, keep))])
    }

    /// Deletes the runs started before `date` (ISO 8601: `2026-11-01` or a full timestamp), then the
    /// cases and texts no run holds any more; returns the runs deleted.
    public func prune(before date: String) throws -> Int {
        try prune(where: "started_at < ?", [.text(date)])
    }

    private func prune(where condition: String, _ values: [SQLValue]) throws -> Int {
        let database = try open()
        let removed = try guarded("prune") {
            try database.writeTransaction { () -> Int in
                try database.run("DELETE FROM runs WHERE \(condition)", values)
                let removed = database.changes
                try database.run("DELETE FROM cases WHERE id NOT IN (SELECT DISTINCT case_ref FROM case_results)")
                try database.run("""
                    DELETE FROM texts WHERE id NOT IN (SELECT tags_ref FROM case_results UNION SELECT reason_ref FROM case_results
                        UNION SELECT definition_ref FROM case_results WHERE definition_ref IS NOT NULL
                        UNION SELECT metrics_ref FROM attempts)
                    """)
                return removed
            }
        }
        if removed > 0 { _ = try? guarded("compact") { try database.execute("PRAGMA wal_checkpoint(TRUNCATE); VACUUM") } }
        return removed
    }

    /// The run `run` as results a `BaselineComparison` reads: the run's summary, and each case's id,
    /// status, gate verdict and pass rate as recorded (attempts are not kept in full, so the cases have none).
    public func baseline(_ run: HistoryRun) throws -> RunResult {
        let database = try open()
        let info = try guarded("read") {
            try database.query("SELECT fingerprint, paths, arguments, finished_at, shard, filter, skipped, attempts FROM runs WHERE id = ?",
                               [.int(run.number)]) { row -> (RunInfo, skipped: Int, attempts: Int) in
                let decoder = JSONDecoder()
                let fingerprint = try decoder.decode(Fingerprint.self, from: Data((row.text(0) ?? "").utf8))
                let paths = try decoder.decode([String].self, from: Data((row.text(1) ?? "[]").utf8))
                let arguments = try decoder.decode([String].self, from: Data((row.text(2) ?? "[]").utf8))
                return (RunInfo(id: run.runID, startedAt: run.startedAt, finishedAt: row.text(3), durationMs: run.durationMs,
                                paths: paths, arguments: arguments, fingerprint: fingerprint, filter: row.text(5), shard: row.text(4)),
                        row.int(6), row.int(7))
            }.first
        }
        guard let info else { throw Fault.invalidInput("history \(location): run #\(run.number) is no longer recorded (pruned?)") }
        let cases = try guarded("read") {
            try database.query("""
                SELECT c.case_key, c.suite, c.case_name, c.variant, tags.text, cr.status, cr.gate_holds, cr.passes,
                       cr.pass_rate, reason.text, cr.duration_us / 1000.0, definition.text, cr.engine
                FROM case_results cr JOIN cases c ON c.id = cr.case_ref
                JOIN texts tags ON tags.id = cr.tags_ref JOIN texts reason ON reason.id = cr.reason_ref
                LEFT JOIN texts definition ON definition.id = cr.definition_ref
                WHERE cr.run = ? ORDER BY cr.case_ref
                """, [.int(run.number)]) { row -> CaseResult in
                let tags = (try? JSONDecoder().decode([String].self, from: Data((row.text(4) ?? "[]").utf8))) ?? []
                var result = CaseResult(id: row.text(0) ?? "", suite: row.text(1) ?? "", caseID: row.text(2) ?? "", variant: row.text(3),
                                        tags: tags, attempts: [], durationMs: row.double(10), definition: row.text(11))
                result.status = try Self.status(row.text(5))
                result.gateHolds = row.int(6) != 0
                result.passes = row.int(7)
                result.passRate = row.double(8)
                result.reason = row.text(9) ?? ""
                result.engine = row.text(12)
                    .flatMap { try? JSONDecoder().decode(EngineIdentity.self, from: Data($0.utf8)) }
                    ?? info.0.fingerprint.engine
                return result
            }
        }
        var result = RunResult(run: info.0, cases: cases)
        result.summary.skipped = info.skipped
        result.summary.attempts = info.attempts
        return result
    }
}
