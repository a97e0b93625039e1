import CSQLite
import Foundation
import FMCore
import FMResults

/// The run history: an SQLite file every `fmeval run` and `merge` appends to (docs/history.md), and
/// the queries over it. A `ResultStore`, saved to beside the results JSON file.
///
/// The file is opened on first use in WAL mode with a busy timeout, so parallel writers (CI shards)
/// wait for each other instead of losing rows; each save is one `BEGIN IMMEDIATE` transaction.
public final class HistoryStore: ResultStore {
    /// The database file.
    public let location: String
    /// The git commit and branch recorded with each saved run (nil outside a git work tree).
    public var git: GitInfo?
    /// The run id of the last run this store saved (nil until a save succeeds).
    public private(set) var lastSaved: String?
    private var connection: SQLiteDatabase?
    private let create: Bool

    /// A store for the file at `path`; `create` makes it (and its folder) when missing, otherwise a
    /// missing file is an error (for queries).
    public init(path: String, git: GitInfo? = nil, create: Bool = true) {
        self.location = path
        self.git = git
        self.create = create
    }

    /// Appends `run` (replacing an earlier save of the same run id: a resumed or retried run). Throws
    /// `Fault` naming the file and what to do.
    public func save(_ run: RunResult) throws {
        try ResultsFile.checkUniqueIDs(run.cases, in: "history \(location)")
        let database = try open()
        try guarded("record the run in") {
            try SQLiteError.retryingWhileBusy {
                try database.writeTransaction { try HistoryWriter(database: database).insert(run, git: git, recordedAt: Date()) }
            }
        }
        lastSaved = run.run.id
    }

    /// The run `name` means (see `run(named:)`) as results, the shape a `--baseline` compares with.
    public func loadRun(named name: String) throws -> RunResult {
        try baseline(try run(named: name))
    }

    /// The open, migrated connection (opened on first use).
    func open() throws -> SQLiteDatabase {
        if let connection { return connection }
        if !FileManager.default.fileExists(atPath: location) {
            guard create else {
                throw Fault.invalidInput("history \(location): no such file; record runs first ('fmeval run' "
                    + "writes reports/history.sqlite) or pass --history FILE")
            }
            try? FileManager.default.createDirectory(atPath: FilePaths.parent(of: location), withIntermediateDirectories: true)
        }
        let database = try guarded("open") { try SQLiteDatabase(path: location, create: create) }
        try guarded("read") { try SQLiteError.retryingWhileBusy {
            try database.execute("PRAGMA foreign_keys = ON")
            let mode = try database.query("PRAGMA journal_mode = WAL") { $0.text(0) ?? "" }.first ?? ""
            if mode.lowercased() != "wal" && mode.lowercased() != "memory" {
                throw SQLiteError(code: SQLITE_ERROR, message: "WAL mode is not available (journal mode \(mode))")
            }
            try migrate(database)
        } }
        connection = database
        return database
    }

    /// The schema version of the open file (0 for a new, empty file).
    /// Both counts come from one statement, so one snapshot: read separately, a writer creating the
    /// schema between them made a new history look like another program's database.
    func version(_ database: SQLiteDatabase) throws -> Int {
        let counts = try database.query("""
            SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'),
                   (SELECT count(*) FROM sqlite_master)
            """) { ($0.int(0), $0.int(1)) }.first ?? (0, 0)
        guard counts.0 == 1 else {
            if counts.1 > 0 {
                throw Fault.invalidInput("history \(location): an SQLite database but not an fmeval history (no "
                    + "schema_version table); pass another --history FILE")
            }
            return 0
        }
        return try database.query("SELECT max(version) FROM schema_version") { $0.int(0) }.first ?? 0
    }

    /// Brings the file up to `HistorySchema.currentVersion`, one migration per transaction; refuses a
    /// newer version.
    private func migrate(_ database: SQLiteDatabase) throws {
        let current = HistorySchema.currentVersion
        guard try version(database) != current else { return }
        try database.writeTransaction {
            let found = try version(database)
            if found > current {
                throw Fault.invalidInput("history \(location): schema version \(found) is newer than this fmeval's "
                    + "\(current); "
                    + "use the fmeval that wrote it (or a newer one), or pass another --history FILE")
            }
            for next in found..<current {
                try database.execute(HistorySchema.migrations[next])
                try database.run("UPDATE schema_version SET version = ?", [.int(next + 1)])
            }
        }
    }

    /// Runs `body`, turning SQLite failures into `Fault`s that name the file and what to do.
    @discardableResult
    func guarded<T>(_ action: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            if error.isCorrupt {
                throw Fault.invalidInput("history \(location): not a usable SQLite database (\(error.message)); "
                    + "move it aside (a new history starts) or pass --history FILE / --no-history")
            }
            if error.isBusy {
                throw Fault.infrastructure("history \(location): still locked by another writer after 30 s "
                    + "(\(error.message)); "
                    + "retry, or give each job its own --history FILE")
            }
            throw Fault.infrastructure("history \(location): cannot \(action) it: \(error.description); check the "
                + "file and its folder are writable, "
                + "or pass --history FILE / --no-history")
        }
    }
}

/// The git commit and branch of the working directory, recorded with each run.
public struct GitInfo: Codable, Equatable, Sendable {
    /// The full commit hash of HEAD.
    public var commit: String
    /// The checked-out branch (nil for a detached HEAD).
    public var branch: String?

    /// A commit and branch.
    public init(commit: String, branch: String?) {
        self.commit = commit
        self.branch = branch
    }

    /// The commit and branch of `directory` by running `git`, or nil when it is not in a git work tree
    /// (or git is not installed).
    public static func detect(directory: String = FileManager.default.currentDirectoryPath) -> GitInfo? {
        func git(_ arguments: [String]) -> String? {
            let request = ChildRequest(argv: ["git"] + arguments, environment: ProcessInfo.processInfo.environment,
                                       directory: directory, timeoutSeconds: 10)
            guard let outcome = try? ChildProcess.run(request), outcome.status == 0, !outcome.timedOut else { return nil }
            let text = String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        guard git(["rev-parse", "--is-inside-work-tree"]) == "true", let commit = git(["rev-parse", "HEAD"]) else { return nil }
        let branch = git(["symbolic-ref", "--short", "-q", "HEAD"])
        return GitInfo(commit: commit, branch: branch)
    }
}
