import Foundation
import FMCore
import FMResults
import FMEngines
import FMEvaluate
import FMSession
import FMSuite

/// Runs one attempt of a case: a session through the provider's driver, every turn, then the evaluators.
struct AttemptExecutor {
    /// The case being run.
    let item: ExpandedCase
    /// Where its session drivers (and engines) come from.
    let provider: EngineProvider
    /// Judges and command evaluators' surroundings.
    let environment: EvaluationEnvironment
    /// The session configuration the case asks for.
    let configuration: SessionConfiguration

    /// How retryable infrastructure failures are retried, and the clock that waits between tries.
    let retry: (policy: RetryPolicy, clock: RetryClock)

    /// An executor for `item`.
    init(item: ExpandedCase, provider: EngineProvider, environment: EvaluationEnvironment,
         retry: RetryPolicy = .none, clock: RetryClock = .live) {
        self.item = item
        self.provider = provider
        self.environment = environment
        self.configuration = AttemptExecutor.configuration(for: item)
        self.retry = (FailureDisposition.retryPolicy(retry, expectations: item.expectations), clock)
    }

    /// What the session produced, before evaluation (also what determinism reruns compare).
    struct Outcome {
        var text: String?
        var content: GeneratedContent?
        var transcript: Transcript
        var stats = TurnStats()
        var error: AttemptError?
        var durationMs: Double = 0
        var retries = 0
        var tokenCounts: PromptTokenCounts?
        /// Turns of the case that started (0: the session ended before its first).
        var turnsStarted = 0

        /// The outcome a driver recorded.
        init(_ record: SessionRecord) {
            tokenCounts = record.tokenCounts
            turnsStarted = record.turns.count
            text = record.text
            content = record.content
            transcript = record.transcript
            stats = record.totals
        }

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
            baseDirectory: FilePaths.parent(of: item.location.file))
        configuration.commands = item.commands
        configuration.guideEnforcement = item.settings.guideEnforcement == .device ? .device : nil
        configuration.loopGuards = item.settings.loopGuards
        configuration.imageTokens = item.settings.imageTokens ?? SessionConfiguration.defaultImageTokens
        return configuration
    }

    /// Runs the session for engine attempt number `engineAttempt` through the provider's driver, with
    /// the wording and seed of the case's attempt `attempt` (a determinism rerun repeats an earlier
    /// attempt under a new engine attempt number), retrying retryable infrastructure failures; never
    /// throws (errors are recorded). The duration is the last try's.
    func run(engineAttempt: Int, attempt: Int? = nil) -> Outcome {
        run(plan(attempt: attempt ?? engineAttempt), engineAttempt: engineAttempt)
    }

    /// The session plan of the case's attempt `index`: its wording and, for a seeded trial, its seed.
    func plan(attempt index: Int) -> SessionPlan {
        var configuration = self.configuration
        configuration.options = item.options(ofAttempt: index)
        var plan = SessionPlan(configuration: configuration, turns: item.turns ?? [item.prompt(ofAttempt: index) ?? ""], attachments: item.attachments)
        plan.edits = item.transcriptEdits
        return plan
    }

    /// Runs `plan` as engine attempt number `engineAttempt` (see `run(engineAttempt:)`); the outcome is that
    /// of the turns from `firstTurn` on (`SessionRecord.droppingFirstTurns`, its duration from that turn's
    /// start), the error whichever ended the session.
    func run(_ plan: SessionPlan, engineAttempt: Int, firstTurn: Int = 0) -> Outcome {
        let context = AttemptContext(caseID: item.id, caseData: item.engineData, attempt: engineAttempt)
        var started = DispatchTime.now()
        var retries = 0
        var record: SessionRecord
        var error: AttemptError?
        do {
            record = try retry.policy.run(clock: retry.clock, onRetry: { _ in retries += 1 }) {
                started = DispatchTime.now()
                return try provider.sessionDriver(for: context).run(plan)
            }
        } catch let failure {
            record = (failure as? SessionDriverFailure)?.partial ?? SessionRecord()
            error = AttemptError(failure)
        }
        let skippedMs = firstTurn > 0 && firstTurn < record.turnOffsetsMs.count ? record.turnOffsetsMs[firstTurn] : 0
        var outcome = Outcome(record.droppingFirstTurns(firstTurn))
        outcome.error = error
        outcome.retries = retries + outcome.stats.engineRetries
        outcome.durationMs = milliseconds(since: started) - skippedMs
        return outcome
    }

    /// The reuse key of `plan` as engine attempt `engineAttempt`, when the provider declares its engine
    /// deterministic and the plan is greedy without command tools; nil when it must go to the engine.
    func reusableRequest(_ plan: SessionPlan, engineAttempt: Int) -> AttemptKey? {
        let context = AttemptContext(caseID: item.id, caseData: item.engineData, attempt: engineAttempt)
        return provider.reuseKey(for: context).flatMap { AttemptKey(plan, engineKey: $0) }
    }

    /// Evaluates `outcome` as attempt `index`; an evaluator that could not give a verdict makes the
    /// attempt an `error` (an `EvaluatorError`), like an engine or tool failure, never a model failure.
    func result(of outcome: Outcome, index: Int) -> AttemptResult {
        var error = outcome.error
        let covered = error.map { FailureDisposition.isCovered($0, by: item.expectations) } ?? false
        error?.expected = covered
        let snapshots = item.settings.stream ? outcome.stats.snapshotCount : 0
        var attempt = AttemptResult(
            index: index, status: .passed, text: outcome.text, output: outcome.content, transcript: outcome.transcript,
            usage: outcome.stats.usage, violations: violations(of: outcome), error: error,
            durationMs: outcome.durationMs, truncated: outcome.stats.truncated, snapshotCount: snapshots,
            engineCalls: outcome.stats.engineCalls, retries: outcome.retries > 0 ? outcome.retries : nil)
        if let trial = item.trial(index) { (attempt.seed, attempt.paraphrase) = (trial.seed.flatMap { Int(exactly: $0) }, trial.paraphrase) }
        if !outcome.stats.grammarLimits.isEmpty { attempt.grammarLimits = outcome.stats.grammarLimits }
        attempt.tokenCounts = outcome.tokenCounts
        attempt.timings = outcome.stats.timings
        if outcome.stats.toolCalls > 0 { attempt.toolMs = outcome.stats.toolMs }
        if let error, FailureDisposition.of(error, covered: covered) == .error {
            attempt.status = .error
            attempt.metrics = [.failing("error", rationale: "unexpected \(error.domain).\(error.caseName): \(error.message)")]
            return attempt
        }
        let subject = EvaluationSubject(
            prompt: (item.turns?.last ?? item.prompt(ofAttempt: index)) ?? "", instructions: item.instructions, text: outcome.text,
            content: outcome.content, schema: item.generating, transcript: outcome.transcript, usage: outcome.stats.usage,
            latencyMilliseconds: outcome.durationMs,
            timeToFirstSnapshotMilliseconds: item.settings.stream ? outcome.stats.timeToFirstSnapshotMs : nil,
            error: error.map { SubjectError(caseName: $0.caseName, message: $0.message) },
            snapshotCount: snapshots, truncated: outcome.stats.truncated)
        attempt.metrics = item.expectations.evaluate(subject, in: environment)
        if let broken = attempt.metrics.firstEvaluatorError {
            let failure = AttemptError(EvaluatorFailure("\(broken.name): \(broken.rationale ?? "the evaluator gave no verdict")"))
            if FailureDisposition.of(failure, covered: false) == .error {
                attempt.status = .error
                attempt.error = failure
                return attempt
            }
        }
        if let error, !covered {
            attempt.metrics.insert(.failing("response", rationale: "\(error.domain).\(error.caseName): \(error.message)"), at: 0)
        }
        attempt.status = attempt.metrics.allGatesPass ? .passed : .failed
        return attempt
    }

    /// Violations of the structured output against the case's schema, and of each tool call's
    /// arguments against that tool's schema (paths prefixed `/toolCalls/N/arguments`): the suite's
    /// tools, then those the transcript's instructions define (a recorded transcript's own).
    private func violations(of outcome: Outcome) -> [Violation] {
        var found: [Violation] = []
        if let schema = item.generating, let content = outcome.content {
            found += SchemaValidator.violations(of: content, against: schema)
        }
        let recordedTools = outcome.transcript.entries.flatMap { entry -> [ToolDefinition] in
            if case .instructions(let instructions) = entry { return instructions.toolDefinitions }
            return []
        }
        let schemas = Dictionary(item.tools.map { ($0.name, $0.arguments) } + recordedTools.map { ($0.name, $0.parameters) },
                                 uniquingKeysWith: { first, _ in first })
        found += ToolCallsEvaluator.argumentViolations(StructuredTranscript(outcome.transcript).toolCalls, tools: schemas).violations
        return found
    }
}

/// Milliseconds from `start` until now.
func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}
