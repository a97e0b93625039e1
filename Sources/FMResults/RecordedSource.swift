/// A recorded transcript file a run scored instead of running a model, with its content hash
/// (the fingerprint's `recordedTranscripts`).
public struct RecordedSource: Codable, Hashable, Sendable {
    /// The file, as the suite named it (relative to the directory the run started in when below it).
    public var path: String
    /// Hex SHA-256 of the file's bytes.
    public var sha256: String

    /// Creates a source.
    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}
