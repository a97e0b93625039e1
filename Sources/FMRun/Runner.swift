import Foundation
import FMCore
import FMResults
import FMEngines
import FMEvaluate
import FMSuite

/// Knobs of one run that apply to every case.
public struct RunnerOptions: Sendable {
    /// `--repeat N`: attempts per case, replacing each case's `repeat`.
    public var repeatOverride: Int?
    /// `--jobs N`: cases run in parallel (each on its own session), at least 1.
    public var jobs: Int
    /// `--check-determinism`: rerun each greedy attempt and flag any divergence.
    public var checkDeterminism: Bool
    /// `--fail-fast`: start no new case once one fails the run (cases already running finish).
    public var failFast: Bool
    /// How an attempt that ends in retryable infrastructure failure (rate limit, timeout) is tried again.
    public var retry: RetryPolicy
    /// What waits between retries (tests inject an instant one).
    public var retryClock: RetryClock
    /// Answer a greedy attempt whose request equals an earlier attempt's of the same case from that attempt,
    /// on engines that declare themselves deterministic (`--no-reuse-repeats`: false).
    public var reuseRepeats = true
    /// The order cases start in (`--case-order`); results and reports keep suite order either way.
    public var caseOrder = CaseOrder.prefix
    /// `--transcript-dialect`: the dialect every attempt's transcript is written in (results, journal);
    /// nil keeps each in its own (Foundation Models 27 for a new session, a recorded file's for a recorded one).
    public var transcriptDialect: Transcript.Dialect?

    /// Creates options; one job, no overrides, the default retry policy.
    public init(repeatOverride: Int? = nil, jobs: Int = 1, checkDeterminism: Bool = false, failFast: Bool = false,
                retry: RetryPolicy = RetryPolicy(), retryClock: RetryClock = .live) {
        self.repeatOverride = repeatOverride
        self.jobs = jobs
        self.checkDeterminism = checkDeterminism
        self.failFast = failFast
        self.retry = retry
        self.retryClock = retryClock
    }
}

/// Runs expanded cases: attempts × repeats through sessions on engines, evaluation, verdicts; on
/// `jobs` threads, appending each finished case to the journal and reporting progress.
public final class Runner: Sendable {
    /// Called once per finished case, serialized: the result, how many have finished, and how many run.
    public typealias Progress = @Sendable (_ result: CaseResult, _ finished: Int, _ total: Int) -> Void
    /// Called as each case starts, from the worker thread that runs it (not serialized), with the number of cases to run.
    public typealias Started = @Sendable (_ item: ExpandedCase, _ total: Int) -> Void

    private let options: RunnerOptions
    private let provider: @Sendable (ExpandedCase) -> EngineProvider
    private let environment: @Sendable (ExpandedCase) -> EvaluationEnvironment

    /// A runner; `provider` gives each case its engine provider, `environment` its evaluation surroundings.
    public init(options: RunnerOptions, provider: @escaping @Sendable (ExpandedCase) -> EngineProvider,
                environment: @escaping @Sendable (ExpandedCase) -> EvaluationEnvironment = { _ in EvaluationEnvironment() }) {
        self.options = options
        self.provider = provider
        self.environment = environment
    }

    /// Runs `cases`, starting them in `options.caseOrder`; results come back in the order of `cases`, and
    /// `progress` sees them in that order too (a finished case waits for those listed before it), while
    /// each is appended to `journal` as it finishes. With `failFast`, no case starts after one fails the
    /// run, so fewer results may come back. Throws only when the journal cannot be written (infrastructure).
    public func run(_ cases: [ExpandedCase], journal: ResultsJournal? = nil, progress: Progress? = nil,
                    started: Started? = nil) throws -> [CaseResult] {
        if let collision = CaseIDCollisions.diagnostics(of: cases).first {
            throw Fault.invalidInput(collision.description)
        }
        let schedule = options.caseOrder.schedule(cases)
        let state = Locked(RunState())
        let work: @Sendable () -> Void = {
            while true {
                let taken: Int? = state.withLock { state in
                    guard state.next < schedule.count, state.journalError == nil, !state.stopped else { return nil }
                    state.next += 1
                    return schedule[state.next - 1]
                }
                guard let position = taken else { return }
                let item = cases[position]
                started?(item, cases.count)
                let result = self.runCase(item)
                let encoded = journal.map { _ in Result { try ResultsJournal.encode(result) } }
                state.withLock { state in
                    do {
                        if let journal, let encoded { try journal.append(encoded.get(), id: result.id) }
                    } catch {
                        state.journalError = error
                    }
                    state.finished[position] = result
                    if self.options.failFast && !result.holdsRun { state.stopped = true }
                    state.release(upTo: cases.count, progress: progress, total: cases.count)
                }
            }
        }
        let workers = max(1, min(options.jobs, cases.count))
        if workers == 1 {
            work()
        } else {
            let group = DispatchGroup()
            for index in 0..<workers {
                group.enter()
                let thread = Thread {
                    work()
                    group.leave()
                }
                thread.name = "fmeval-job-\(index)"
                thread.stackSize = 8 << 20
                thread.start()
            }
            group.wait()
        }
        let finished = state.withLock { state in
            state.release(upTo: cases.count, progress: progress, total: cases.count, skippingGaps: true)
            return state
        }
        if let journalError = finished.journalError {
            if journalError is JournalWriteError { throw Fault.infrastructure("\(journalError)") }
            throw Fault.infrastructure("cannot append to the results journal \(journal?.path ?? ""): \(journalError)")
        }
        return finished.results
    }

    /// Runs every attempt of one case (and its determinism reruns) and decides its status.
    public func runCase(_ item: ExpandedCase) -> CaseResult {
        let started = DispatchTime.now()
        let executor = AttemptExecutor(item: item, provider: provider(item), environment: environment(item),
                                       retry: options.retry, clock: options.retryClock)
        // A `reproduce` case runs its trials (seeds × wordings); `--repeat` applies to the other cases.
        let repeats = item.reproduce.map { $0.trials } ?? max(1, options.repeatOverride ?? item.repeatCount)
        var attempts: [AttemptResult] = []
        var signatures: [String] = []
        var reuse = RepeatReuse()
        for index in 0..<repeats {
            let plan = executor.plan(attempt: index)
            let request = options.reuseRepeats ? executor.reusableRequest(plan, engineAttempt: index) : nil
            let earlier = request.flatMap(reuse.earlier(for:))
            let outcome = earlier?.outcome ?? executor.run(plan, engineAttempt: index)
            if let request, earlier == nil { reuse.keep(outcome, index: index, for: request) }
            if options.checkDeterminism { signatures.append(outcome.signature) }
            var attempt = executor.result(of: outcome, index: index)
            if let dialect = options.transcriptDialect, attempt.transcript.dialect != dialect {
                attempt.transcript = attempt.transcript.converted(to: dialect)
            }
            attempt.reusedFrom = earlier?.index
            attempts.append(attempt)
        }
        var determinism: DeterminismResult?
        // Greedy attempts, and a `reproduce` case's seeded ones (the seed fixes the draws), must repeat exactly.
        let greedy = item.options.sampling == nil || item.options.sampling == .greedy
        let reproducible = (0..<repeats).filter { index in item.trial(index).map { $0.seed != nil || greedy } ?? greedy }
        if options.checkDeterminism, !reproducible.isEmpty {
            determinism = DeterminismResult(diverged: false)
            for index in reproducible {
                let rerun = executor.run(engineAttempt: repeats + index, attempt: index).signature
                if rerun != signatures[index] {
                    let kind = item.trial(index)?.seed.map { "seeded attempt \(index) (seed \($0))" } ?? "greedy attempt \(index)"
                    determinism = DeterminismResult(diverged: true, attempt: index,
                        detail: "\(kind) diverged on rerun: first \(clip(signatures[index])), rerun \(clip(rerun))")
                    break
                }
            }
        }
        // After the fresh attempts and their determinism reruns, so engine attempt numbers never repeat.
        let contamination = item.priorPrompts.isEmpty ? nil
            : ContaminationCheck(item: item, executor: executor).run(fresh: attempts, firstEngineAttempt: 2 * repeats)
        var result = CaseResult(
            id: item.id, suite: item.suite, caseID: item.caseID, variant: item.variant, tags: item.tags,
            source: "\(item.location.file):\(item.location.line)", engine: executor.provider.identity,
            gate: item.gate ?? CaseGate(), knownIssue: item.knownIssue, attempts: attempts, determinism: determinism,
            expectedLabel: Runner.expectedLabel(of: item), durationMs: milliseconds(since: started),
            definition: CaseDefinition.hash(of: item), measuresReproduction: item.reproduce != nil, origin: item.origin)
        result.contamination = contamination
        return result
    }

    /// The label an enum case expects: its schema is a string enum and it expects one value (`equals`).
    static func expectedLabel(of item: ExpandedCase) -> String? {
        guard let labels = enumLabels(of: item) else { return nil }
        for expectation in item.expectations {
            if let check = expectation.payload(as: EqualsExpectation.self), check.path == nil, let label = check.value.stringValue, labels.contains(label) {
                return label
            }
        }
        return nil
    }

    /// The choices of a case whose response schema is a string enum.
    static func enumLabels(of item: ExpandedCase) -> [String]? {
        guard case .string(let string)? = item.generating?.root.kind else { return nil }
        return string.choices
    }

    /// Classification summaries per suite and variant over the enum cases in `results`.
    public static func classifications(of cases: [ExpandedCase], results: [CaseResult]) -> [SuiteClassification] {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var groups: [String: (suite: String, variant: String?, labels: [String], observations: [ClassificationObservation])] = [:]
        var order: [String] = []
        for result in results {
            guard let label = result.expectedLabel, let item = byID[result.id], let labels = enumLabels(of: item) else { continue }
            let key = result.suite + "\u{0}" + (result.variant ?? "")
            if groups[key] == nil {
                groups[key] = (result.suite, result.variant, [], [])
                order.append(key)
            }
            for label in labels where !groups[key]!.labels.contains(label) { groups[key]!.labels.append(label) }
            for attempt in result.attempts where attempt.status != .error {
                let predicted = attempt.output?.stringValue ?? attempt.text?.trimmingCharacters(in: .whitespacesAndNewlines)
                groups[key]!.observations.append(ClassificationObservation(expected: label, predicted: predicted))
            }
        }
        return order.compactMap { key in
            guard let group = groups[key] else { return nil }
            return SuiteClassification(suite: group.suite, variant: group.variant,
                                       summary: ClassificationSummary(labels: group.labels, observations: group.observations))
        }
    }
}

/// What the job threads of one `Runner.run` share: the next case to take, the finished results (by
/// position in the run's case list) not yet reported, those reported in order, and why to stop.
private struct RunState: Sendable {
    var next = 0
    var finished: [Int: CaseResult] = [:]
    var reported = 0
    var results: [CaseResult] = []
    var journalError: Error?
    var stopped = false

    /// Reports the finished results that follow those already reported without a gap, in case-list
    /// order; with `skippingGaps` (the run is over), every finished result, passing over cases never run.
    mutating func release(upTo count: Int, progress: Runner.Progress?, total: Int, skippingGaps: Bool = false) {
        while reported < count {
            guard let result = finished.removeValue(forKey: reported) else {
                if skippingGaps && !finished.isEmpty {
                    reported += 1
                    continue
                }
                return
            }
            reported += 1
            results.append(result)
            progress?(result, results.count, total)
        }
    }
}

/// `text` cut to 200 characters for messages.
func clip(_ text: String) -> String {
    text.count <= 200 ? text : String(text.prefix(197)) + "…"
}
