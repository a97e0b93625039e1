// FMEval: fmeval as a library for an app's test target. Load a suite (a file, or built in code), run it
// on an engine (a registered one, or your own), and assert on the results; write JUnit or HTML from code.
// It runs suites through the same pipeline as `fmeval run` (FMRun's RunPipeline and Runner).
//
// Re-exported: the Foundation Models vocabulary and the engine protocol (FMCore), the session-driver seam
// (FMSession), expectations and statistics (FMEvaluate), the results model (FMResults) and the A/B
// comparison (FMReport). Nothing of the inference engine (FMEmbedded, FMKernels) is part of this API.
@_exported import FMCore
@_exported import FMSession
@_exported import FMEvaluate
@_exported import FMResults
@_exported import FMReport

/// Why a suite could not be loaded or run: the kind decides whose fault it is, the message says what to do.
public struct EvalError: Error, CustomStringConvertible, Sendable {
    /// Whose fault an `EvalError` is.
    public enum Kind: String, Sendable {
        /// The suite, an option or an engine setting is wrong (the CLI's exit 2).
        case invalidInput
        /// An engine, a file system or another piece of infrastructure failed (the CLI's exit 3).
        case infrastructure
    }

    /// Whose fault it is.
    public var kind: Kind
    /// Every problem, one per line, each naming file:line:column (or the setting) and what to do.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
