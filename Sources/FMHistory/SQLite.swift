import CSQLite
import Foundation

/// An SQLite failure: the database file, SQLite's result code and its message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
    public var code: Int32
    /// SQLite's message for it.
    public var message: String

    /// True when the file is not an SQLite database or its pages are damaged.
    public var isCorrupt: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

    /// The message with the result code.
    public var description: String { "\(message) (SQLite code \(code))" }

    /// True when another connection holds the lock (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// Runs `body` until it does not fail busy, for at most `seconds`. SQLite returns `SQLITE_BUSY`
    /// without calling the busy handler in some cases (two connections switching a new file to WAL, WAL
    /// recovery), so the busy timeout alone lost a run when two processes started a history at once.
    static func retryingWhileBusy<T>(seconds: Double = 30, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                usleep(20_000)
            }
        }
    }
}

/// One value bound to, or read from, an SQL statement.
enum SQLValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// A connection to one SQLite file: statements, transactions, no shared state between connections.
///
/// Not thread-safe: one connection per store, used from one thread at a time.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// The database file.
    let path: String

    /// Opens (creating when `create`) the file at `path` with a busy timeout of `busyMilliseconds`.
    init(path: String, create: Bool, busyMilliseconds: Int32 = 30_000) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard code == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            handle = nil
            throw SQLiteError(code: code & 0xff, message: message)
        }
        sqlite3_busy_timeout(db, busyMilliseconds)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without results (schema scripts, pragmas, transactions).
    func execute(_ sql: String) throws {
        var errorText: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorText)
        if code != SQLITE_OK {
            let message = errorText.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorText)
            throw SQLiteError(code: code & 0xff, message: message)
        }
    }

    /// A prepared statement for `sql`.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        return SQLiteStatement(statement, database: self)
    }

    /// Every row of `sql` with `values` bound, each read by `read`.
    func query<Row>(_ sql: String, _ values: [SQLValue] = [], read: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try read(statement)) }
        return rows
    }

    /// Runs `sql` with `values` bound, ignoring any rows.
    func run(_ sql: String, _ values: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT` (the write lock taken up front, so concurrent
    /// writers wait on the busy timeout instead of failing mid-transaction); rolls back on a throw.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last inserted row.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// An error for `code` with the connection's current message.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind, step, read columns; finalized when released.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Clears earlier bindings and binds `values` to parameters 1…n.
    func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw database.error(code) }
        }
    }

    /// Advances to the next row: true when there is one, false when done.
    func step() throws -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code)
        }
    }

    /// Binds `values`, runs the statement to its end, and resets it for the next use.
    func run(_ values: [SQLValue]) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(statement)
    }

    /// Column `index` as an integer (0 for NULL).
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }

    /// Column `index` as a double (0 for NULL).
    func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    /// Column `index` as text, nil for NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, index) else { return nil }
        return String(cString: bytes)
    }

    /// True when column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// Column `index` as a double, nil for NULL.
    func optionalDouble(_ index: Int32) -> Double? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
    }
}

extension SQLValue {
    /// Text, or NULL for nil.
    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    /// A real, or NULL for nil.
    static func optional(_ number: Double?) -> SQLValue { number.map(SQLValue.real) ?? .null }
    /// An integer from a Bool (1 / 0).
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    /// An integer from an Int.
    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}
