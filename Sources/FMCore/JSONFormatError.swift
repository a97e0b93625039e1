/// JSON that parsed but does not have the shape a format needs (a missing field, a wrong type, an unknown role).
public struct JSONFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// JSON pointer of the offending value ("" is the document root).
    public var path: String
    /// What is wrong and what to write instead.
    public var message: String

    /// Creates an error at the JSON pointer `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "at /pointer: message".
    public var description: String { "at \(path.isEmpty ? "the top level" : path): \(message)" }
}
