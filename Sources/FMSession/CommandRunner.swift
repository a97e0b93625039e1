import Foundation
import FMCore

/// What a finished (or killed) command produced.
public struct CommandResult: Sendable {
    /// Exit status, or 128 + the signal number for a command ended by a signal.
    public var status: Int32
    /// Everything written to stdout, up to the output limit (secrets redacted).
    public var stdout: Data
    /// The last few hundred characters of stderr, trimmed (secrets redacted).
    public var stderrTail: String
    /// Whether the time limit killed it.
    public var timedOut: Bool
    /// How many bytes the command wrote to stdout in all (more than `stdout.count` when cut).
    public var stdoutBytes: Int = 0
    /// Whether stdout was cut at the output limit.
    public var stdoutTruncated: Bool = false
}

/// Runs command tools through `ChildProcess`: stdin fed, output capped, an explicit environment, and on
/// a timeout the command's whole process group stopped.
public enum CommandRunner {
    /// A command that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }

    /// Runs `argv` (a program found on the child's PATH unless it contains `/`), feeding `stdin`, stopping
    /// its process group after `timeoutSeconds`. The child's environment is exactly `environment`.
    /// Throws `Failure` only when it cannot start.
    public static func run(_ argv: [String], stdin: Data, timeoutSeconds: Double, directory: String? = nil,
                           environment: [String: String], outputLimit: Int = ChildProcess.defaultOutputLimit,
                           redactor: SecretRedactor? = nil) throws -> CommandResult {
        let outcome: ChildOutcome
        do {
            outcome = try ChildProcess.run(ChildRequest(argv: argv, stdin: stdin, environment: environment, directory: directory,
                                                        timeoutSeconds: timeoutSeconds, outputLimit: outputLimit, redactor: redactor))
        } catch let error as ChildProcessError {
            throw Failure(description: error.description)
        }
        let tail = String(decoding: outcome.stderr.suffix(400), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return CommandResult(status: outcome.status, stdout: outcome.timedOut ? Data() : outcome.stdout, stderrTail: tail,
                             timedOut: outcome.timedOut, stdoutBytes: outcome.stdoutBytes, stdoutTruncated: outcome.stdoutTruncated)
    }
}

extension CommandRunner.Failure: ClassifiedError {
    /// A command tool that cannot start is infrastructure.
    public var failureClass: FailureClass { .infrastructure }

    /// `ChildProcessError`, as for any program that cannot start.
    public var domain: String { "ChildProcessError" }

    /// `cannotStart`.
    public var caseName: String { "cannotStart" }

    /// The description.
    public var failureMessage: String { description }
}
