import FMCore
import FMEngines
import FMResults
import FMSession

/// Everything that decides a greedy attempt's answer on a deterministic engine: the session plan itself
/// (every field of it, by its synthesized `Hashable`) and what the engine says besides the request (the
/// scripted engine: the attempt's script). Two attempts with equal keys get byte-identical engine requests
/// on every turn, so a field added to the plan can never let a repeat be answered from another request.
struct AttemptKey: Hashable {
    var plan: SessionPlan
    var engineKey: String

    /// The key of `plan` on an engine whose reuse key is `engineKey`, or nil when it may not be answered
    /// from an earlier attempt: sampling is not greedy, or a tool's output comes from a command.
    init?(_ plan: SessionPlan, engineKey: String) {
        let configuration = plan.configuration
        guard configuration.options.sampling == nil || configuration.options.sampling == .greedy,
              !configuration.tools.contains(where: { $0.output.runsCommand }) else { return nil }
        self.plan = plan
        self.engineKey = engineKey
    }
}

/// The attempts of one case that may answer later identical ones (`--no-reuse-repeats` turns it off).
struct RepeatReuse {
    private var answered: [AttemptKey: (index: Int, outcome: AttemptExecutor.Outcome)] = [:]

    /// The earlier attempt that answered `request`, if any.
    func earlier(for request: AttemptKey) -> (index: Int, outcome: AttemptExecutor.Outcome)? {
        answered[request]
    }

    /// Keeps `outcome` of attempt `index` to answer later attempts with the same request, unless it ended
    /// in an infrastructure error (only the model's own outcomes are deterministic).
    mutating func keep(_ outcome: AttemptExecutor.Outcome, index: Int, for request: AttemptKey) {
        guard answered[request] == nil else { return }
        if let error = outcome.error, error.failureClass != .modelBehavior { return }
        answered[request] = (index, outcome)
    }
}
