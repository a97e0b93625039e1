import CSQLite

/// Stores each distinct text (a tag list, a reason, a definition hash, an attempt's metrics) once in
/// the `texts` table and hands out its id; one interner serves one save, caching what it has seen.
final class HistoryTexts {
    private let insert: SQLiteStatement
    private let lookup: SQLiteStatement
    private var ids: [String: Int64] = [:]

    /// An interner writing into `database` (inside the caller's transaction).
    init(database: SQLiteDatabase) throws {
        insert = try database.prepare("INSERT OR IGNORE INTO texts (text) VALUES (?)")
        lookup = try database.prepare("SELECT id FROM texts WHERE text = ?")
    }

    /// The id of `text` in `texts`, adding it when new.
    func id(_ text: String) throws -> SQLValue {
        if let known = ids[text] { return .integer(known) }
        try insert.run([.text(text)])
        try lookup.bind([.text(text)])
        guard try lookup.step() else {
            throw SQLiteError(code: SQLITE_ERROR, message: "text just stored is missing from texts")
        }
        let id = Int64(lookup.int(0))
        ids[text] = id
        return .integer(id)
    }

    /// The id of `text`, or NULL for none.
    func id(_ text: String?) throws -> SQLValue {
        guard let text else { return .null }
        return try id(text)
    }
}
