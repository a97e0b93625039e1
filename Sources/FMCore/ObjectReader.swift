/// Reads the members of one JSON object for a decoder, with errors that name the JSON path.
struct ObjectReader {
    /// The object's members.
    let members: [String: GeneratedContent]
    /// JSON pointer of the object.
    let path: String

    /// Wraps `content`, which must be an object; `what` names it in the error ("a transcript entry").
    init(_ content: GeneratedContent, at path: String, what: String) throws {
        guard case .structure(let properties, _) = content.kind else {
            throw JSONFormatError(path: path, message: "expected \(what) as a JSON object, found \(content.typeName)")
        }
        self.members = properties
        self.path = path
    }

    /// The pointer of member `key`.
    func path(_ key: String) -> String { jsonPointer(path, key) }

    /// Throws for any member not in `allowed`, listing what is allowed.
    func rejectUnknownKeys(_ allowed: [String], in what: String) throws {
        for key in members.keys.sorted() where !allowed.contains(key) {
            throw JSONFormatError(path: path(key), message: "unknown key \"\(key)\" in \(what); allowed keys are \(allowed.joined(separator: ", "))")
        }
    }

    /// The members whose keys are not in `known` (kept by readers that round-trip keys they do not model).
    func members(except known: [String]) -> [String: GeneratedContent] {
        members.filter { !known.contains($0.key) }
    }

    /// Member `key`, or nil when absent.
    func optional(_ key: String) -> GeneratedContent? { members[key] }

    /// Member `key`; throws when absent.
    func required(_ key: String, _ what: String) throws -> GeneratedContent {
        guard let value = members[key] else {
            throw JSONFormatError(path: path, message: "missing \"\(key)\" (\(what))")
        }
        return value
    }

    /// String member `key`; throws when absent or not a string.
    func string(_ key: String, _ what: String) throws -> String {
        try Self.string(try required(key, what), at: path(key), what)
    }

    /// String member `key` when present; throws when present but not a string.
    func optionalString(_ key: String, _ what: String) throws -> String? {
        guard let value = members[key] else { return nil }
        return try Self.string(value, at: path(key), what)
    }

    /// Array member `key` (nil when absent); throws when present but not an array.
    func optionalArray(_ key: String, _ what: String) throws -> [GeneratedContent]? {
        guard let value = members[key] else { return nil }
        guard let elements = value.arrayValue else {
            throw JSONFormatError(path: path(key), message: "expected \(what) as an array, found \(value.typeName)")
        }
        return elements
    }

    /// Number member `key` when present; throws when present but not a number.
    func optionalNumber(_ key: String, _ what: String) throws -> Double? {
        guard let value = members[key] else { return nil }
        guard let number = value.numberValue else {
            throw JSONFormatError(path: path(key), message: "expected \(what) as a number, found \(value.typeName)")
        }
        return number
    }

    /// Non-negative integer member `key` when present; throws when present but not one.
    func optionalCount(_ key: String, _ what: String) throws -> Int? {
        guard let value = members[key] else { return nil }
        guard let count = value.intValue, count >= 0 else {
            throw JSONFormatError(path: path(key), message: "expected \(what) as a non-negative integer, found \(value.jsonString)")
        }
        return count
    }

    /// Boolean member `key` when present; throws when present but not a boolean.
    func optionalBool(_ key: String, _ what: String) throws -> Bool? {
        guard let value = members[key] else { return nil }
        guard let flag = value.boolValue else {
            throw JSONFormatError(path: path(key), message: "expected \(what) as true or false, found \(value.jsonString)")
        }
        return flag
    }

    /// `value` as a string, or an error naming `path`.
    static func string(_ value: GeneratedContent, at path: String, _ what: String) throws -> String {
        guard let string = value.stringValue else {
            throw JSONFormatError(path: path, message: "expected \(what) as a string, found \(value.typeName)")
        }
        return string
    }
}
