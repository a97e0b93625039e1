import FMCore
import FMEvaluate
import FMResults
import FMSession
import FMSuite

/// The `contamination` option: each attempt again, in one session that first answers the prompts of the
/// cases before it (`ExpandedCase.priorPrompts`), scored on the case's own turns only. A verdict that
/// differs from the fresh attempt's means the answer depends on the session's history, as in an app that
/// reuses one `LanguageModelSession` for every request. Stops at the first attempt that differs.
struct ContaminationCheck {
    /// The case, with its prior prompts.
    let item: ExpandedCase
    /// Its executor (the fresh attempts' provider and evaluators).
    let executor: AttemptExecutor

    /// Compares each of `fresh`'s attempts with the same attempt after the prior prompts, as engine attempts
    /// from `firstEngineAttempt` on.
    func run(fresh: [AttemptResult], firstEngineAttempt: Int) -> ContaminationResult {
        let prior = item.priorPrompts
        let after = prior.map(\.caseID)
        var statuses: [AttemptOutcome] = []
        var unknown: [String] = []
        for attempt in fresh {
            // An attempt answered from an identical earlier one (same request, deterministic engine) would
            // be answered alike after the same prior prompts.
            if let earlier = attempt.reusedFrom, earlier < statuses.count {
                statuses.append(statuses[earlier])
                continue
            }
            var plan = executor.plan(attempt: attempt.index)
            plan.turns = prior.map(\.prompt) + plan.turns
            plan.edits = Dictionary(uniqueKeysWithValues: plan.edits.map { ($0.key + prior.count, $0.value) })
            let outcome = executor.run(plan, engineAttempt: firstEngineAttempt + attempt.index,
                                       firstTurn: prior.count)
            guard outcome.turnsStarted > 0 else {
                statuses.append(.error)
                let why = outcome.error.map { "\($0.domain).\($0.caseName): \($0.message)" } ?? "no turn started"
                unknown.append("attempt \(attempt.index + 1): the reused session ended before the case's turns "
                    + "(\(why))")
                continue
            }
            let reused = executor.result(of: outcome, index: attempt.index)
            statuses.append(reused.status)
            guard attempt.status != .error, reused.status != .error else {
                let side = reused.status == .error ? "reused" : "fresh"
                unknown.append("attempt \(attempt.index + 1): an error in the \(side) session leaves no verdict "
                    + "to compare")
                continue
            }
            guard attempt.status != reused.status else { continue }
            let reusedFailed = reused.status == .failed
            let why = (reusedFailed ? reused : attempt).metrics.failingMetrics.first.map { metric in
                metric.name + (metric.rationale.map { ": " + $0 } ?? "")
            } ?? "its gate"
            let detail = "\(attempt.status.rawValue) in a fresh session, \(reused.status.rawValue) after "
                + "\(prior.count) earlier case\(prior.count == 1 ? "" : "s") (\(after.joined(separator: ", ")))"
                + (fresh.count > 1 ? " on attempt \(attempt.index + 1)" : "")
                + "; the \(reusedFailed ? "reused" : "fresh") session failed \(why)"
            return ContaminationResult(after: after, statuses: statuses, dependsOnHistory: true,
                                       attempt: attempt.index, detail: detail)
        }
        return ContaminationResult(after: after, statuses: statuses, dependsOnHistory: false,
                                   detail: unknown.isEmpty ? nil : unknown.joined(separator: "; "))
    }
}
