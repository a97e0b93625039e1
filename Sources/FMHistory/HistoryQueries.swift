import Foundation
import FMCore
import FMEvaluate
import FMResults

/// The questions `fmeval history` answers (docs/history.md): runs, a case's trend, flips between two
/// runs, the flakiest cases, pass rate per suite over time, and which run a name means.
extension HistoryStore {
    private static let runColumns = """
        id, run_id, started_at, duration_ms, git_commit, git_branch, engine, shard, total, passed, failed, flaky,
        errored, known_issues, gates_failed,
        (SELECT count(*) FROM case_results WHERE case_results.run = runs.id AND case_results.gate_holds)
        """

    /// The recorded runs, newest first (the newest `limit` when given).
    public func runs(limit: Int? = nil) throws -> [HistoryRun] {
        let database = try open()
        return try guarded("read") {
            try database.query("SELECT \(Self.runColumns) FROM runs ORDER BY id DESC LIMIT ?", [.int(limit ?? -1)], read: Self.readRun)
        }
    }

    /// The run a name means: `last`, `last-passing` (newest run where every gate held), a run number,
    /// a run id (or its first 8+ characters), or a git branch (its newest run). Throws `Fault`
    /// (invalid input) listing what exists when nothing matches.
    public func run(named name: String) throws -> HistoryRun {
        let database = try open()
        let found: HistoryRun? = try guarded("read") {
            let select = "SELECT \(Self.runColumns) FROM runs"
            switch name {
            case "last":
                return try database.query("\(select) ORDER BY id DESC LIMIT 1", read: Self.readRun).first
            case "last-passing":
                return try database.query("\(select) WHERE gates_failed = 0 AND total > 0 ORDER BY id DESC LIMIT 1", read: Self.readRun).first
            default:
                if let number = Int(name), let byNumber = try database.query("\(select) WHERE id = ?", [.int(number)], read: Self.readRun).first {
                    return byNumber
                }
                if let byID = try database.query("\(select) WHERE run_id = ? OR (length(?) >= 8 AND run_id LIKE ? || '%') ORDER BY id DESC LIMIT 1",
                                                 [.text(name), .text(name), .text(name)], read: Self.readRun).first {
                    return byID
                }
                return try database.query("\(select) WHERE git_branch = ? ORDER BY id DESC LIMIT 1", [.text(name)], read: Self.readRun).first
            }
        }
        if let found { return found }
        let recent = try runs(limit: 5).map { "#\($0.number) \($0.runID.prefix(8)) \($0.branch ?? "")" }
        let hint = name == "last-passing" ? "no run in \(location) held every gate"
            : "no run '\(name)' in \(location) (neither a run number, a run id, nor a branch with runs)"
        throw Fault.invalidInput("\(hint); recent runs: \(recent.isEmpty ? "none" : recent.joined(separator: ", ")); "
            + "name one as last, last-passing, a number, a run id or a branch ('fmeval history runs' lists them)")
    }

    /// The case ids recorded, sorted.
    public func caseIDs() throws -> [String] {
        let database = try open()
        return try guarded("read") { try database.query("SELECT case_key FROM cases ORDER BY case_key") { $0.text(0) ?? "" } }
    }

    /// `caseID`'s status per run, oldest first, over the newest `last` runs that ran it (all when nil).
    /// Throws `Fault` naming the closest recorded case ids when the case was never recorded.
    public func trend(caseID: String, last: Int? = nil) throws -> CaseTrend {
        let database = try open()
        let points: [TrendPoint]? = try guarded("read") {
            guard let caseRow = try database.query("SELECT id FROM cases WHERE case_key = ?", [.text(caseID)], read: { $0.int(0) }).first else {
                return nil
            }
            return try database.query("""
                SELECT r.id, r.started_at, r.git_commit, cr.status, cr.fails_run, cr.pass_rate, d.text
                FROM case_results cr JOIN runs r ON r.id = cr.run LEFT JOIN texts d ON d.id = cr.definition_ref
                WHERE cr.case_ref = ? ORDER BY r.id DESC LIMIT ?
                """, [.int(caseRow), .int(last ?? -1)], read: Self.readPoint).reversed()
        }
        guard let points else {
            var message = "history \(location): no case '\(caseID)' recorded"
            if let guess = Suggestion.closest(to: caseID, in: try caseIDs()) { message += " (did you mean \(guess)?)" }
            throw Fault.invalidInput(message + "; give the stable id suite/case or suite/case@variant")
        }
        return CaseTrend(caseID: caseID, points: points)
    }

    /// The trends of every case of the newest `last` runs (points oldest first), keyed by case id: one
    /// query for the HTML report's trend strips and the terminal's regression lines.
    public func trends(last: Int) throws -> [String: CaseTrend] {
        let database = try open()
        let rows: [(String, TrendPoint)] = try guarded("read") {
            try database.query("""
                SELECT c.case_key, r.id, r.started_at, r.git_commit, cr.status, cr.fails_run, cr.pass_rate, d.text
                FROM (SELECT id, started_at, git_commit FROM runs ORDER BY id DESC LIMIT ?) r
                JOIN case_results cr ON cr.run = r.id JOIN cases c ON c.id = cr.case_ref
                LEFT JOIN texts d ON d.id = cr.definition_ref
                ORDER BY r.id
                """, [.int(last)]) { row in (row.text(0) ?? "", try Self.readPoint(row, offset: 1)) }
        }
        var grouped: [String: [TrendPoint]] = [:]
        for (id, point) in rows { grouped[id, default: []].append(point) }
        return Dictionary(uniqueKeysWithValues: grouped.map { ($0.key, CaseTrend(caseID: $0.key, points: $0.value)) })
    }

    /// The cases run in both `from` and `to` whose status differs, by case id.
    public func flips(from: HistoryRun, to: HistoryRun) throws -> [StatusFlip] {
        let database = try open()
        return try guarded("read") {
            try database.query("""
                SELECT c.case_key, a.status, a.fails_run, b.status, b.fails_run
                FROM case_results a JOIN case_results b ON a.case_ref = b.case_ref JOIN cases c ON c.id = a.case_ref
                WHERE a.run = ? AND b.run = ? AND a.status <> b.status ORDER BY c.case_key
                """, [.int(from.number), .int(to.number)]) { row in
                let failedBefore = row.int(2) != 0, failsNow = row.int(4) != 0
                return StatusFlip(caseID: row.text(0) ?? "", before: try Self.status(row.text(1)), after: try Self.status(row.text(3)),
                                  direction: failedBefore == failsNow ? "changed" : (failsNow ? "regression" : "fixed"))
            }
        }
    }

    /// Over the newest `last` runs: the cases whose status changed between consecutive runs that ran
    /// the same definition, most changes first (ties by case id); cases that never changed are left out.
    public func flakiest(last: Int) throws -> [FlakyCase] {
        let database = try open()
        let (runs, keys) = try guarded("read") {
            (try Self.recentRuns(database, last: last), try Self.caseKeys(database))
        }
        var histories: [Int: [(definition: Int?, status: CaseStatus)]] = [:]
        try guarded("read") {
            try Self.forEachResult(database, from: runs.first?.id, columns: "case_ref, definition_ref, status") { row in
                let definition = row.isNull(1) ? nil : row.int(1)
                histories[row.int(0), default: []].append((definition, try Self.status(row.text(2))))
            }
        }
        var flaky: [FlakyCase] = []
        for (caseRef, history) in histories {
            let changes = zip(history, history.dropFirst()).filter { before, after in
                before.definition == after.definition && before.status != after.status
            }.count
            guard changes > 0 else { continue }
            flaky.append(FlakyCase(caseID: keys[caseRef]?.key ?? "", runs: history.count, changes: changes,
                                   statuses: history.map(\.status),
                                   flipRate: Double(changes) / Double(history.count - 1)))
        }
        return flaky.sorted { ($0.changes, $1.caseID) > ($1.changes, $0.caseID) }
    }

    /// Each suite's (and suite variant's) pass rate per run over the newest `last` runs, oldest first,
    /// suites by name.
    public func suiteRates(last: Int) throws -> [SuitePassRate] {
        let database = try open()
        let (runs, keys) = try guarded("read") {
            (try Self.recentRuns(database, last: last), try Self.caseKeys(database))
        }
        let runIndex = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($0.element.id, $0.offset) })
        let none = Array(repeating: (cases: 0, holding: 0), count: runs.count)
        var counts: [String: [(cases: Int, holding: Int)]] = [:]
        try guarded("read") {
            try Self.forEachResult(database, from: runs.first?.id, columns: "run, case_ref, gate_holds") { row in
                guard let index = runIndex[row.int(0)], let suite = keys[row.int(1)]?.suite else { return }
                counts[suite, default: none][index].cases += 1
                counts[suite, default: none][index].holding += row.int(2)
            }
        }
        return counts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { suite in
            let points = zip(runs, counts[suite] ?? []).filter { $0.1.cases > 0 }.map { run, count in
                SuiteRatePoint(run: run.id, startedAt: run.startedAt, cases: count.cases, holding: count.holding,
                               rate: PassRate(passing: count.holding, cases: count.cases).rate)
            }
            return SuitePassRate(suite: suite, points: points)
        }
    }

    /// The newest `last` runs' numbers and start times, oldest first.
    private static func recentRuns(_ database: SQLiteDatabase, last: Int) throws -> [(id: Int, startedAt: String)] {
        try database.query("SELECT id, started_at FROM runs ORDER BY id DESC LIMIT ?", [.int(last)]) {
            (id: $0.int(0), startedAt: $0.text(1) ?? "")
        }.reversed()
    }

    /// Every recorded case's stable id and suite key (`suite` or `suite@variant`), by row id.
    private static func caseKeys(_ database: SQLiteDatabase) throws -> [Int: (key: String, suite: String)] {
        let rows = try database.query("SELECT id, case_key, suite || coalesce('@' || variant, '') FROM cases") {
            ($0.int(0), (key: $0.text(1) ?? "", suite: $0.text(2) ?? ""))
        }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    /// Calls `body` with `columns` of each case result of the runs numbered `first` and later, in run
    /// order (one range of the (run, case) index, no sort); nothing when `first` is nil.
    private static func forEachResult(_ database: SQLiteDatabase, from first: Int?, columns: String,
                                      _ body: (SQLiteStatement) throws -> Void) throws {
        guard let first else { return }
        let statement = try database.prepare("SELECT \(columns) FROM case_results WHERE run >= ? ORDER BY run")
        try statement.bind([.int(first)])
        while try statement.step() { try body(statement) }
    }

    static func readRun(_ row: SQLiteStatement) throws -> HistoryRun {
        let total = row.int(8), gatesFailed = row.int(14)
        return HistoryRun(number: row.int(0), runID: row.text(1) ?? "", startedAt: row.text(2) ?? "", durationMs: row.optionalDouble(3),
                          commit: row.text(4), branch: row.text(5), engine: row.text(6) ?? "", shard: row.text(7), total: total,
                          passed: row.int(9), failed: row.int(10), flaky: row.int(11), errored: row.int(12), knownIssues: row.int(13),
                          gatesFailed: gatesFailed, passRate: PassRate(passing: row.int(15), cases: total).rate)
    }

    static func readPoint(_ row: SQLiteStatement) throws -> TrendPoint { try readPoint(row, offset: 0) }

    static func readPoint(_ row: SQLiteStatement, offset: Int32) throws -> TrendPoint {
        TrendPoint(run: row.int(offset), startedAt: row.text(offset + 1) ?? "", commit: row.text(offset + 2),
                   status: try status(row.text(offset + 3)), failsRun: row.int(offset + 4) != 0,
                   passRate: row.double(offset + 5), definition: row.text(offset + 6))
    }

    static func status(_ text: String?) throws -> CaseStatus {
        guard let text, let status = CaseStatus(rawValue: text) else {
            throw SQLiteError(code: 11, message: "unknown case status '\(text ?? "NULL")'")
        }
        return status
    }
}
