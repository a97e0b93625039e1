/// `usage`: passes when token counts stay within the budget.
public struct UsageEvaluator: Evaluator {
    /// The budget.
    public let budget: UsageBudget
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ budget: UsageBudget, name: String = "usage") {
        self.budget = budget
        self.name = name
    }

    /// One metric: failing names every exceeded limit.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let usage = subject.usage
        let checks: [(String, Int, Int?)] = [
            ("inputTokens", usage.inputTokens, budget.maxInputTokens),
            ("outputTokens", usage.outputTokens, budget.maxOutputTokens),
            ("totalTokens", usage.totalTokens, budget.maxTotalTokens),
            ("reasoningTokens", usage.reasoningTokens, budget.maxReasoningTokens),
        ]
        let checked = checks.compactMap { label, used, limit in limit.map { (label, used, $0) } }
        let over = checked.filter { $0.1 > $0.2 }.map { "\($0.0) \($0.1) > \($0.2)" }
        if over.isEmpty {
            return [.passing(name, rationale: checked.map { "\($0.0) \($0.1) ≤ \($0.2)" }.joined(separator: ", "))]
        }
        return [.failing(name, rationale: "over budget: " + over.joined(separator: ", "))]
    }
}

/// `latency`: passes when the attempt's times stay within the budget.
public struct LatencyEvaluator: Evaluator {
    /// The budget.
    public let budget: LatencyBudget
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ budget: LatencyBudget, name: String = "latency") {
        self.budget = budget
        self.name = name
    }

    /// One metric: failing names every exceeded limit (a first-snapshot limit with no snapshot fails too).
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        var notes: [String] = []
        var over: [String] = []
        if let limit = budget.maxMilliseconds {
            let line = "\(formatScore(subject.latencyMilliseconds.rounded())) ms \(subject.latencyMilliseconds > limit ? ">" : "≤") \(formatScore(limit)) ms"
            subject.latencyMilliseconds > limit ? over.append("total " + line) : notes.append("total " + line)
        }
        if let limit = budget.maxTimeToFirstSnapshotMilliseconds {
            if let first = subject.timeToFirstSnapshotMilliseconds {
                let line = "first snapshot \(formatScore(first.rounded())) ms \(first > limit ? ">" : "≤") \(formatScore(limit)) ms"
                first > limit ? over.append(line) : notes.append(line)
            } else {
                over.append("no snapshot was streamed, so time to first snapshot cannot meet \(formatScore(limit)) ms")
            }
        }
        return over.isEmpty
            ? [.passing(name, rationale: notes.joined(separator: ", "))]
            : [.failing(name, rationale: "over budget: " + over.joined(separator: ", "))]
    }
}

/// `snapshots`: passes when the number of streamed snapshots is within bounds.
public struct SnapshotsEvaluator: Evaluator {
    /// The bounds.
    public let expectation: SnapshotExpectation
    /// Metric name.
    public let name: String

    /// Creates the evaluator.
    public init(_ expectation: SnapshotExpectation, name: String = "snapshots") {
        self.expectation = expectation
        self.name = name
    }

    /// One metric: the count against the bounds.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let count = subject.snapshotCount
        let bounds = "\(expectation.minimum.map(String.init) ?? "0")…\(expectation.maximum.map(String.init) ?? "∞")"
        let inside = (expectation.minimum.map { count >= $0 } ?? true) && (expectation.maximum.map { count <= $0 } ?? true)
        return [.check(name, inside, rationale: "\(count) snapshot(s) streamed, \(inside ? "within" : "outside") \(bounds)")]
    }
}
