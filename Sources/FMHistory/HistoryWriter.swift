import Foundation
import FMCore
import FMEvaluate
import FMResults

/// Writes one run's rows (run, cases, case results, attempts) inside the caller's transaction.
struct HistoryWriter {
    let database: SQLiteDatabase
    private let encoder: JSONEncoder

    /// A writer into `database`.
    init(database: SQLiteDatabase) {
        self.database = database
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    /// Inserts `run`, first deleting an earlier save of the same run id; returns the run's row id.
    @discardableResult
    func insert(_ run: RunResult, git: GitInfo?, recordedAt: Date) throws -> Int64 {
        let info = run.run, summary = run.summary
        for replaced in [info.id] + (info.mergedFrom ?? []) {
            try database.run("DELETE FROM runs WHERE run_id = ?", [.text(replaced)])
        }
        try database.run("""
            INSERT INTO runs (run_id, started_at, finished_at, duration_ms, recorded_at, engine, fingerprint, git_commit,
                              git_branch, arguments, paths, shard, filter, total, passed, failed, flaky, errored,
                              known_issues, skipped, gates_failed, attempts)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(info.id), .text(info.startedAt), .optional(info.finishedAt), .optional(info.durationMs),
                .text(HistoryDates.format(recordedAt)), .text(info.fingerprint.engine.description),
                .text(try json(info.fingerprint)), .optional(git?.commit), .optional(git?.branch),
                .text(try json(info.arguments)), .text(try json(info.paths)), .optional(info.shard),
                .optional(info.filter), .int(summary.total), .int(summary.passed), .int(summary.failed), .int(summary.flaky),
                .int(summary.errored), .int(summary.knownIssues), .int(summary.skipped), .int(summary.gatesFailed),
                .int(summary.attempts),
            ])
        let runRow = database.lastInsertRowID
        let caseRows = try caseRowIDs(run.cases)
        let texts = try HistoryTexts(database: database)
        let insertResult = try database.prepare("""
            INSERT OR REPLACE INTO case_results (run, case_ref, status, gate_holds, fails_run, passes, pass_rate,
                                                tags_ref, definition_ref, reason_ref, duration_us, diverged, engine,
                                                history_dependent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertAttempt = try database.prepare("""
            INSERT OR REPLACE INTO attempts (run, case_ref, attempt, status, metrics_ref, violations, input_tokens,
                                             output_tokens, duration_us, error, retries)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for result in run.cases {
            guard let caseRow = caseRows[result.id] else { continue }
            let ownEngine = result.engine == info.fingerprint.engine ? nil : result.engine
            try insertResult.run([
                .integer(runRow), .integer(caseRow), .text(result.status.rawValue), .bool(result.gateHolds),
                .bool(result.failsRun), .int(result.passes), .real(result.passRate),
                try texts.id(try json(result.tags)), try texts.id(result.definition), try texts.id(result.reason),
                Self.microseconds(result.durationMs),
                .bool(result.diverged), .optional(try ownEngine.map { try json($0) }), .bool(result.historyDependent),
            ])
            for attempt in result.attempts {
                let violations = Self.violationCounts(attempt.violations)
                try insertAttempt.run([
                    .integer(runRow), .integer(caseRow), .int(attempt.index), .text(attempt.status.rawValue),
                    try texts.id(try json(attempt.metrics)), .optional(violations.isEmpty ? nil : try json(violations)),
                    .int(attempt.usage.inputTokens), .int(attempt.usage.outputTokens),
                    Self.microseconds(attempt.durationMs),
                    .optional(attempt.error.map { "\($0.domain).\($0.caseName)" }),
                    attempt.retries.map(SQLValue.int) ?? .null,
                ])
            }
        }
        return runRow
    }

    /// The `cases` row id of each case id in `results`, inserting the cases not seen before.
    private func caseRowIDs(_ results: [CaseResult]) throws -> [String: Int64] {
        let insert = try database.prepare("INSERT OR IGNORE INTO cases (case_key, suite, case_name, variant) VALUES (?, ?, ?, ?)")
        let lookup = try database.prepare("SELECT id FROM cases WHERE case_key = ?")
        var rows: [String: Int64] = [:]
        for result in results where rows[result.id] == nil {
            try insert.run([.text(result.id), .text(result.suite), .text(result.caseID), .optional(result.variant)])
            try lookup.bind([.text(result.id)])
            if try lookup.step() { rows[result.id] = Int64(lookup.int(0)) }
        }
        return rows
    }

    /// How many violations each schema keyword has (`{"required": 2}`).
    static func violationCounts(_ violations: [Violation]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for violation in violations { counts[violation.keyword.rawValue, default: 0] += 1 }
        return counts
    }

    /// A duration in milliseconds as whole microseconds (the columns' unit: an integer takes 3 bytes where a
    /// real takes 8).
    static func microseconds(_ milliseconds: Double) -> SQLValue {
        .integer(Int64((milliseconds * 1000).rounded()))
    }

    /// Compact JSON with sorted keys.
    private func json<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// ISO 8601 UTC timestamps, as the results file writes them.
enum HistoryDates {
    /// `date` as ISO 8601 with fractional seconds, UTC.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
