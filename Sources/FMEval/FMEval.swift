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

/// Why a suite could not be loaded or run: FMCore's `Fault`, the one fault type of fmeval (`kind`
/// `.invalidInput` is the CLI's exit 2, `.infrastructure` its exit 3; the message says what to do).
public typealias EvalError = Fault
