import FMCore

/// A recorded transcript file a run scored instead of running a model, with its content hash
/// (the fingerprint's `recordedTranscripts`).
public struct RecordedSource: Codable, Hashable, Sendable {
    /// The file, as the suite named it (relative to the directory the run started in when below it).
    public var path: String
    /// Hex SHA-256 of the file's bytes.
    public var sha256: String
    /// The members of the `fm` tool's session-file wrapper (`modelName`, …) when the file is one; absent otherwise.
    public var sessionFile: [String: GeneratedContent]?

    /// Creates a source.
    public init(path: String, sha256: String, sessionFile: [String: GeneratedContent]? = nil) {
        self.path = path
        self.sha256 = sha256
        self.sessionFile = sessionFile
    }
}
