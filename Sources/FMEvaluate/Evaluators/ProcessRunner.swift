import FMCore
import Foundation

/// What a finished child process left behind.
struct ProcessOutput {
    /// Exit status.
    var status: Int32
    /// Everything written to stdout (UTF-8, invalid bytes replaced; secrets redacted).
    var stdout: String
    /// Everything written to stderr, up to the limit (secrets redacted).
    var stderr: String
}

/// Runs an evaluator program through `ChildProcess` with input on stdin and a deadline.
enum ProcessRunner {
    /// The most bytes of an evaluator's stdout read (one JSON metric is far smaller).
    static let outputLimit = 1 << 20

    /// Runs `argv` (looked up on the child's PATH), feeding `stdin`, with exactly the variables of
    /// `commands`; fails when it cannot start, times out, dies by a signal or prints too much.
    static func run(argv: [String], stdin: Data, timeoutSeconds: Double, workingDirectory: String?,
                    commands: CommandPolicy = CommandPolicy()) -> Result<ProcessOutput, EvaluatorFailure> {
        guard let program = argv.first, !program.isEmpty else {
            return .failure(EvaluatorFailure("the command has no program to run; give argv"))
        }
        let outcome: ChildOutcome
        do {
            outcome = try ChildProcess.run(ChildRequest(argv: argv, stdin: stdin, environment: commands.environment(),
                                                        directory: workingDirectory, timeoutSeconds: timeoutSeconds,
                                                        outputLimit: outputLimit, redactor: commands.redactor()))
        } catch let error as ChildProcessError {
            return .failure(EvaluatorFailure(error.description.replacingOccurrences(of: "cannot start \(program)", with: "cannot start '\(program)'")))
        } catch {
            return .failure(EvaluatorFailure("cannot start '\(program)': \(error)"))
        }
        let stderr = String(decoding: outcome.stderr, as: UTF8.self)
        if outcome.timedOut {
            return .failure(EvaluatorFailure("'\(program)' did not finish within \(formatScore(timeoutSeconds)) s and was killed"))
        }
        if let signal = outcome.signal {
            return .failure(EvaluatorFailure("'\(program)' crashed (signal \(signal))" + (stderr.isEmpty ? "" : "; stderr: \(abbreviate(stderr))")))
        }
        if outcome.stdoutTruncated {
            return .failure(EvaluatorFailure("'\(program)' printed \(outcome.stdoutBytes) bytes on stdout, more than the \(outputLimit) read; it must print one JSON metric"))
        }
        return .success(ProcessOutput(status: outcome.status, stdout: String(decoding: outcome.stdout, as: UTF8.self), stderr: stderr))
    }
}
