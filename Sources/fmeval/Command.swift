import Foundation
import FMCore
import FMReport

/// A subcommand of the `fmeval` tool: one file per command under `Sources/fmeval/`.
protocol Command: Sendable {
    /// The words that select this command, e.g. `["schema", "check"]`.
    static var path: [String] { get }
    /// One line for `fmeval --help`.
    static var summary: String { get }
    /// Full help text printed by `fmeval help COMMAND` and `COMMAND --help`.
    static var help: String { get }
    /// Runs the command with the arguments after its path; returns the process exit code.
    static func run(_ arguments: [String]) throws -> Int32
}

/// Process exit codes (DESIGN.md "CLI contract").
enum ExitCode {
    /// All gates hold.
    static let ok: Int32 = 0
    /// A gate failed: a case failed, a regression, a schema violation.
    static let failed: Int32 = 1
    /// Invalid input: a suite, schema, file or flag.
    static let invalidInput: Int32 = 2
    /// Infrastructure: engine unavailable, model fetch failed.
    static let infrastructure: Int32 = 3
}

/// An error that ends a command with a message on stderr and a chosen exit code.
struct CLIError: Error, CustomStringConvertible {
    /// The one-line (or few-line) message, without the `fmeval: error:` prefix.
    var message: String
    /// The exit code the process ends with.
    var exitCode: Int32

    /// An invalid-input error (exit 2).
    static func invalidInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitCode.invalidInput) }
    /// An infrastructure error (exit 3).
    static func infrastructure(_ message: String) -> CLIError { CLIError(message: message, exitCode: ExitCode.infrastructure) }

    var description: String { message }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalSafe.text(text, keeping: TerminalStyle.escapes) + "\n").utf8))
}
