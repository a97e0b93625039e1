import Foundation
import FMCore
import FMReport

/// A subcommand of the `fmeval` tool: one file per command under `Sources/fmeval/`.
protocol Command: Sendable {
    /// The words that select this command, e.g. `["schema", "check"]`.
    static var path: [String] { get }
    /// The operands and flags: they parse its arguments and write its USAGE line, flag list and README synopsis.
    static var usage: CommandUsage { get }
    /// One line for `fmeval --help`.
    static var summary: String { get }
    /// Full help text printed by `fmeval help COMMAND` and `COMMAND --help`.
    static var help: String { get }
    /// Runs the command with the arguments after its path; returns the process exit code.
    static func run(_ arguments: [String]) throws -> Int32
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalSafe.text(text, keeping: TerminalStyle.escapes) + "\n").utf8))
}
