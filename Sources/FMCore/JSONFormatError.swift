/// JSON that parsed but does not have the shape a format needs (a missing field, a wrong type, an unknown role).
public struct JSONFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// JSON pointer of the offending value ("" is the document root).
    public var path: String
    /// What is wrong and what to write instead.
    public var message: String
    /// The right form, when the message teaches one: a value to show after the message (each reader renders
    /// it in its own syntax: JSON here, YAML in a YAML suite).
    public var example: GeneratedContent?

    /// Creates an error at the JSON pointer `path`, with the right form as `example` when there is one.
    public init(path: String, message: String, example: GeneratedContent? = nil) {
        self.path = path
        self.message = message
        self.example = example
    }

    /// The message, and ", like: EXAMPLE" in compact JSON when there is an example.
    public var teachingMessage: String { message + (example.map { ", like: \($0.jsonString)" } ?? "") }

    /// "at /pointer: message" (with the example, when there is one).
    public var description: String { "at \(path.isEmpty ? "the top level" : path): \(teachingMessage)" }
}
