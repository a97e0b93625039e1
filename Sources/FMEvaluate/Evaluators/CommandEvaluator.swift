import FMCore
import Foundation

/// `command`: runs an external evaluator with the subject as JSON on stdin and reads one metric
/// (`{"value": "passing|failing|scoring|ignore", "score"?, "rationale"?, "threshold"?}`) from stdout.
/// A command that cannot start (or is not found), hangs past its timeout, crashes, exits non-zero or
/// prints anything else gave no verdict: its metric is an evaluator error (the attempt becomes an
/// `error`, never a model failure) that says exactly what went wrong.
///
/// The subject on stdin is `EvaluationSubject`'s JSON: `prompt`, `instructions`, `text`, `content`, `schema`,
/// `transcript` (Apple's transcript JSON), `structuredTranscript`, `usage`, `latencyMilliseconds`,
/// `timeToFirstSnapshotMilliseconds`, `error` `{caseName, message}`, `snapshotCount`, `truncated`, `expected`
/// (absent keys are null or missing).
public struct CommandEvaluator: Evaluator {
    /// The command and its timeout.
    public let config: CommandConfig
    /// The directory the command runs in (the suite's directory); nil keeps the current one.
    public let workingDirectory: String?
    /// The environment and secrets the command runs with.
    public let commands: CommandPolicy
    /// Metric name.
    public var name: String { config.name }

    /// Creates the evaluator.
    public init(_ config: CommandConfig, workingDirectory: String? = nil, commands: CommandPolicy = CommandPolicy()) {
        self.config = config
        self.workingDirectory = workingDirectory
        self.commands = commands
    }

    /// One metric from the command, or an evaluator error explaining why the command could not give it.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let input: Data
        do {
            input = try JSONEncoder().encode(subject)
        } catch {
            return [.evaluatorError(name, rationale: "evaluator error: the subject could not be encoded as JSON: \(error)")]
        }
        switch ProcessRunner.run(argv: config.argv, stdin: input, timeoutSeconds: config.timeoutSeconds, workingDirectory: workingDirectory,
                                 commands: commands) {
        case .failure(let failure):
            return [.evaluatorError(name, rationale: "evaluator error: \(failure.message)")]
        case .success(let output):
            return [parse(output)]
        }
    }

    /// The metric printed by a command that exited normally.
    private func parse(_ output: ProcessOutput) -> Metric {
        let program = config.argv.first ?? ""
        let stderr = output.stderr.isEmpty ? "" : "; stderr: \(abbreviate(output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"
        guard output.status == 0 else {
            return .evaluatorError(name, rationale: "evaluator error: '\(program)' exited with status \(output.status)\(stderr)")
        }
        let text = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            return .evaluatorError(name, rationale: "evaluator error: '\(program)' printed nothing on stdout; it must print one JSON metric\(stderr)")
        }
        let json: GeneratedContent
        do {
            json = try GeneratedContent(json: text)
        } catch {
            return .evaluatorError(name, rationale: "evaluator error: '\(program)' printed something that is not JSON (\(error)): \(abbreviate(GeneratedContent(text).jsonString))")
        }
        return Self.metric(from: json, name: name, program: program)
    }

    /// Reads `{"value", "score"?, "rationale"?, "threshold"?}`; anything else is an evaluator error naming the field.
    static func metric(from json: GeneratedContent, name: String, program: String) -> Metric {
        let fail = { (reason: String) in Metric.evaluatorError(name, rationale: "evaluator error: '\(program)' printed \(shown(json)): \(reason)") }
        guard case .structure = json.kind else { return fail("expected a JSON object with \"value\"") }
        let rationale = json["rationale"]?.stringValue
        if let raw = json["rationale"], rationale == nil, !raw.isNull { return fail("\"rationale\" must be a string") }
        let threshold = json["threshold"]?.numberValue
        if let raw = json["threshold"], threshold == nil, !raw.isNull { return fail("\"threshold\" must be a number") }
        switch json["value"]?.stringValue {
        case "passing": return Metric(name: name, value: .passing, rationale: rationale)
        case "failing": return Metric(name: name, value: .failing, rationale: rationale ?? "the command reported failing")
        case "ignore": return Metric(name: name, value: .ignore, rationale: rationale)
        case "scoring":
            guard let score = json["score"]?.numberValue, score.isFinite else { return fail("\"scoring\" needs a finite number in \"score\"") }
            return Metric(name: name, value: .scoring(score), rationale: rationale, threshold: threshold)
        default:
            return fail("\"value\" must be \"passing\", \"failing\", \"scoring\" or \"ignore\"")
        }
    }
}
