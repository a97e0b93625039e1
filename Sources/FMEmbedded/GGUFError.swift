/// A GGUF file that cannot be read: which file, where in it, what is wrong and what to do.
public struct GGUFError: Error, CustomStringConvertible, Sendable {
    /// The file's path.
    public let path: String
    /// Byte offset where the problem was found, when it has one.
    public let offset: Int?
    /// What is wrong.
    public let message: String
    /// What the user can do about it.
    public let hint: String

    /// Creates an error for `path` at byte `offset`.
    public init(path: String, offset: Int?, message: String, hint: String = GGUFError.redownloadHint) {
        self.path = path
        self.offset = offset
        self.message = message
        self.hint = hint
    }

    /// The default advice: the file is damaged or not a model, so fetch a good one.
    public static let redownloadHint =
        "use a llama-family GGUF file (v2 or v3), or run 'fmeval model fetch' to download the default model again"

    /// `path: byte N: message; hint`.
    public var description: String {
        let place = offset.map { "\(path): byte \($0)" } ?? path
        return "\(place): \(message); \(hint)"
    }
}
