import Foundation
import FMCore
import FMResults
import FMEngines
import FMEvaluate
import FMSession
import FMSuite

/// Runs one attempt of a case: a session on a fresh engine, every turn, then the evaluators.
struct AttemptExecutor {
    /// The case being run.
    let item: ExpandedCase
    /// Where its engines come from.
    let provider: EngineProvider
    /// Judges and command evaluators' surroundings.
    let environment: EvaluationEnvironment
    /// The session configuration the case asks for.
    let configuration: SessionConfiguration

    /// An executor for `item`.
    init(item: ExpandedCase, provider: EngineProvider, environment: EvaluationEnvironment) {
        self.item = item
        self.provider = provider
        self.environment = environment
        self.configuration = AttemptExecutor.configuration(for: item)
    }

    /// What the session produced, before evaluation (also what determinism reruns compare).
    struct Outcome {
        var text: String?
        var content: GeneratedContent?
        var transcript: Transcript
        var stats = TurnStats()
        var error: AttemptError?
        var durationMs: Double = 0

        /// Output, tool trajectory and error in one comparable line.
        var signature: String {
            let calls = StructuredTranscript(transcript).toolCalls.map { "\($0.name)\($0.arguments.jsonString)" }
            return [content?.jsonString ?? text ?? "", calls.joined(separator: ";"), error?.caseName ?? ""].joined(separator: " | ")
        }
    }

    /// The session configuration `item` asks for.
    static func configuration(for item: ExpandedCase) -> SessionConfiguration {
        var configuration = SessionConfiguration(
            instructions: item.instructions, tools: item.tools.map(SessionTool.init(suiteTool:)), options: item.options,
            schema: item.generating, constrained: item.settings.constrained,
            includeSchemaInPrompt: item.settings.includeSchemaInPrompt, contextSize: item.settings.contextSize,
            maxToolCalls: item.settings.maxToolCalls,
            baseDirectory: (item.location.file as NSString).deletingLastPathComponent)
        configuration.commands = item.commands
        return configuration
    }

    /// Runs the session for engine attempt number `engineAttempt`; never throws (errors are recorded).
    func run(engineAttempt: Int) -> Outcome {
        let started = DispatchTime.now()
        var outcome = Outcome(transcript: Transcript())
        var session: LanguageModelSession?
        do {
            let engine = try provider.engine(for: AttemptContext(caseID: item.id, script: item.script, attempt: engineAttempt))
            let current = LanguageModelSession(engine: engine, configuration: configuration)
            session = current
            for prompt in item.turns ?? [item.prompt ?? ""] {
                let offset = milliseconds(since: started)
                do {
                    let response = try current.respond(to: prompt)
                    outcome.stats.accumulate(response.stats, offsetMs: offset)
                    outcome.text = response.text
                    outcome.content = response.content
                } catch {
                    outcome.stats.accumulate(current.lastTurnStats, offsetMs: offset)
                    throw error
                }
            }
        } catch {
            outcome.error = AttemptError(error)
            outcome.text = outcome.stats.lastResponseText
        }
        outcome.transcript = session?.transcript ?? Transcript()
        outcome.durationMs = milliseconds(since: started)
        return outcome
    }

    /// Evaluates `outcome` as attempt `index`; an evaluator that could not give a verdict makes the
    /// attempt an `error` (an `EvaluatorError`), like an engine or tool failure, never a model failure.
    func result(of outcome: Outcome, index: Int) -> AttemptResult {
        let expectsError = item.expectations.contains { $0.expectsError }
        var error = outcome.error
        error?.expected = expectsError
        let snapshots = item.settings.stream ? outcome.stats.snapshotCount : 0
        var attempt = AttemptResult(
            index: index, status: .passed, text: outcome.text, output: outcome.content, transcript: outcome.transcript,
            usage: outcome.stats.usage, violations: violations(of: outcome), error: error,
            durationMs: outcome.durationMs, truncated: outcome.stats.truncated, snapshotCount: snapshots,
            engineCalls: outcome.stats.engineCalls)
        if let error, !expectsError, !error.isModelBehavior {
            attempt.status = .error
            attempt.metrics = [.failing("error", rationale: "unexpected \(error.domain).\(error.caseName): \(error.message)")]
            return attempt
        }
        let subject = EvaluationSubject(
            prompt: (item.turns?.last ?? item.prompt) ?? "", instructions: item.instructions, text: outcome.text,
            content: outcome.content, schema: item.generating, transcript: outcome.transcript, usage: outcome.stats.usage,
            latencyMilliseconds: outcome.durationMs,
            timeToFirstSnapshotMilliseconds: item.settings.stream ? outcome.stats.timeToFirstSnapshotMs : nil,
            error: error.map { SubjectError(caseName: $0.caseName, message: $0.message) },
            snapshotCount: snapshots, truncated: outcome.stats.truncated)
        attempt.metrics = item.expectations.evaluate(subject, in: environment)
        if let broken = attempt.metrics.firstEvaluatorError {
            attempt.status = .error
            attempt.error = AttemptError(domain: "EvaluatorError", caseName: "evaluatorFailed",
                                         message: "\(broken.name): \(broken.rationale ?? "the evaluator gave no verdict")")
            return attempt
        }
        if let error, !expectsError {
            attempt.metrics.insert(.failing("response", rationale: "\(error.domain).\(error.caseName): \(error.message)"), at: 0)
        }
        attempt.status = attempt.metrics.allGatesPass ? .passed : .failed
        return attempt
    }

    /// Violations of the structured output against the case's schema, and of each tool call's
    /// arguments against that tool's schema (paths prefixed `/toolCalls/N/arguments`).
    private func violations(of outcome: Outcome) -> [Violation] {
        var found: [Violation] = []
        if let schema = item.generating, let content = outcome.content {
            found += SchemaValidator.violations(of: content, against: schema)
        }
        let schemas = Dictionary(item.tools.map { ($0.name, $0.arguments) }, uniquingKeysWith: { first, _ in first })
        for (index, call) in StructuredTranscript(outcome.transcript).toolCalls.enumerated() {
            guard let schema = schemas[call.name] else { continue }
            for var violation in SchemaValidator.violations(of: call.arguments, against: schema) {
                violation.path = "/toolCalls/\(index)/arguments" + violation.path
                found.append(violation)
            }
        }
        return found
    }
}

/// Milliseconds from `start` until now.
func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}

extension AttemptError {
    /// Whether the model's own output caused the error (unparsable or cut structure, endless tool calls,
    /// ignoring toolCallingMode): the attempt then fails on its merits instead of counting as an
    /// infrastructure error.
    var isModelBehavior: Bool {
        switch (domain, caseName) {
        case ("GeneratedContent.ParsingError", _), ("SessionError", "toolCallLimitExceeded"),
             ("SessionError", "toolCallingModeViolation"):
            return true
        default:
            return false
        }
    }

    /// Classifies any error an attempt can end in.
    init(_ error: Error) {
        switch error {
        case let error as LanguageModelError:
            self.init(domain: "LanguageModelError", caseName: error.caseName, message: error.description)
        case let error as LanguageModelSessionError:
            self.init(domain: "LanguageModelSession.Error", caseName: error.caseName, message: error.description)
        case let error as SessionError:
            self.init(domain: "SessionError", caseName: error.caseName, message: error.description)
        case let error as GeneratedContent.ParsingError:
            self.init(domain: "GeneratedContent.ParsingError", caseName: "parsingError", message: error.description)
        case let error as ReplayMiss:
            self.init(domain: "ReplayMiss", caseName: "cassetteMiss", message: error.message)
        case let error as ScriptError:
            self.init(domain: "ScriptError", caseName: "scriptError", message: error.message)
        default:
            self.init(domain: "EngineError", caseName: "engineError", message: "\(error)")
        }
    }
}
