import Foundation

/// A parsed JSON file that remembers where each value came from, so errors can name `FILE:LINE:COLUMN`.
public struct JSONDocument: Sendable {
    /// The file name used in messages.
    public let file: String
    /// The parsed value.
    public let content: GeneratedContent
    /// Where each value starts, by JSON pointer.
    public let locations: [String: GeneratedContent.SourceLocation]

    /// Parses `text`; `file` names it in errors. Throws `JSONDocumentError`.
    public init(text: String, file: String) throws {
        self.file = file
        do {
            (content, locations) = try GeneratedContent.parseWithLocations(json: text)
        } catch let error as GeneratedContent.ParsingError {
            throw JSONDocumentError(file: file, location: .init(line: error.line, column: error.column), pointer: nil, message: error.message)
        }
    }

    /// Reads and parses the file at `path` (`-` reads standard input). Throws `JSONDocumentError`.
    public static func load(path: String) throws -> JSONDocument {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                let exists = FileManager.default.fileExists(atPath: path)
                throw JSONDocumentError(file: path, location: nil, pointer: nil,
                                        message: exists ? "cannot read the file; check its permissions" : "no such file; check the path")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw JSONDocumentError(file: path, location: nil, pointer: nil, message: "the file is not UTF-8 text")
        }
        return try JSONDocument(text: text, file: path == "-" ? "<stdin>" : path)
    }

    /// Reads a typed value from the document with `read`, turning `JSONFormatError` and `SchemaError`
    /// into a `JSONDocumentError` that names the file, the line:column of the offending value and its JSON path.
    public func decode<Value>(_ read: (GeneratedContent) throws -> Value) throws -> Value {
        do {
            return try read(content)
        } catch let error as JSONFormatError {
            throw JSONDocumentError(file: file, location: location(of: error.path), pointer: error.path, message: error.teachingMessage)
        } catch let error as SchemaError {
            throw JSONDocumentError(file: file, location: location(of: error.path), pointer: nil, message: error.description)
        }
    }

    /// Where the value at JSON pointer `pointer` starts; for a missing value, where its nearest parent starts.
    public func location(of pointer: String) -> GeneratedContent.SourceLocation? {
        var current = pointer
        while true {
            if let found = locations[current] { return found }
            guard let slash = current.lastIndex(of: "/") else { return locations[""] }
            current = String(current[..<slash])
        }
    }
}

/// A problem with a JSON file: the file, where in it, and what is wrong.
public struct JSONDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name.
    public var file: String
    /// The line and column, when known.
    public var location: GeneratedContent.SourceLocation?
    /// The JSON pointer of the offending value, when known.
    public var pointer: String?
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(file: String, location: GeneratedContent.SourceLocation?, pointer: String?, message: String) {
        self.file = file
        self.location = location
        self.pointer = pointer
        self.message = message
    }

    /// One line: `FILE:LINE:COLUMN: at POINTER: message`.
    public var description: String {
        var text = file
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": "
        if let pointer { text += "at \(pointer.isEmpty ? "the top level" : pointer): " }
        return text + message
    }
}
