import FMCore

/// `constraints` / `schema`: violations of a GenerationSchema, counted per keyword, within budgets.
public struct ConstraintExpectation: Codable, Equatable, Sendable {
    /// The schema to check against; nil means the schema the attempt requested.
    public var schema: GenerationSchema?
    /// The most violations allowed in total.
    public var maxViolations: Int
    /// The most violations allowed per keyword (`enum`, `required`, `pattern`, …); unlisted keywords
    /// fall under `maxViolations` only.
    public var maxViolationsPerKeyword: [String: Int]

    /// Creates a constraint budget (zero violations by default).
    public init(schema: GenerationSchema? = nil, maxViolations: Int = 0, maxViolationsPerKeyword: [String: Int] = [:]) {
        self.schema = schema
        self.maxViolations = maxViolations
        self.maxViolationsPerKeyword = maxViolationsPerKeyword
    }

    /// Budgets that can never be met (negative counts), for suite validation.
    public var problems: [String] {
        var found: [String] = []
        if maxViolations < 0 { found.append("maxViolations must be 0 or more, not \(maxViolations)") }
        let known = Violation.Keyword.allCases.map(\.rawValue)
        for (keyword, limit) in maxViolationsPerKeyword.sorted(by: { $0.key < $1.key }) {
            if !known.contains(keyword) {
                found.append("maxViolationsPerKeyword: unknown keyword '\(keyword)'; use one of \(known.joined(separator: ", "))")
            }
            if limit < 0 { found.append("maxViolationsPerKeyword.\(keyword) must be 0 or more, not \(limit)") }
        }
        return found
    }

    private enum CodingKeys: String, CodingKey { case schema, maxViolations, maxViolationsPerKeyword }

    /// Decodes `{"schema"?, "maxViolations"?, "maxViolationsPerKeyword"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decodeIfPresent(GenerationSchema.self, forKey: .schema)
        maxViolations = try container.decodeIfPresent(Int.self, forKey: .maxViolations) ?? 0
        maxViolationsPerKeyword = try container.decodeIfPresent([String: Int].self, forKey: .maxViolationsPerKeyword) ?? [:]
    }
}

/// `error`: the attempt ends in an expected error.
public struct ErrorExpectation: Codable, Equatable, Sendable {
    /// The error's case name (`contextSizeExceeded`, `refusal`, `concurrentRequests`, …); nil accepts any error.
    public var caseName: String?
    /// Text the error message must contain; nil accepts any message.
    public var messageContains: String?

    /// Creates an expected-error check.
    public init(caseName: String? = nil, messageContains: String? = nil) {
        self.caseName = caseName
        self.messageContains = messageContains
    }
}

/// `usage`: token budgets for the attempt (all turns and tool rounds together).
public struct UsageBudget: Codable, Equatable, Sendable {
    /// The most input tokens.
    public var maxInputTokens: Int?
    /// The most output tokens.
    public var maxOutputTokens: Int?
    /// The most input plus output tokens.
    public var maxTotalTokens: Int?
    /// The most reasoning tokens.
    public var maxReasoningTokens: Int?

    /// Creates a token budget; nil limits are unchecked.
    public init(maxInputTokens: Int? = nil, maxOutputTokens: Int? = nil, maxTotalTokens: Int? = nil, maxReasoningTokens: Int? = nil) {
        self.maxInputTokens = maxInputTokens
        self.maxOutputTokens = maxOutputTokens
        self.maxTotalTokens = maxTotalTokens
        self.maxReasoningTokens = maxReasoningTokens
    }

    /// Budgets that check nothing or can never be met, for suite validation.
    public var problems: [String] {
        let limits = [("maxInputTokens", maxInputTokens), ("maxOutputTokens", maxOutputTokens),
                      ("maxTotalTokens", maxTotalTokens), ("maxReasoningTokens", maxReasoningTokens)]
        if limits.allSatisfy({ $0.1 == nil }) {
            return ["usage needs at least one of maxInputTokens, maxOutputTokens, maxTotalTokens, maxReasoningTokens"]
        }
        return limits.compactMap { name, limit in
            guard let limit, limit < 0 else { return nil }
            return "\(name) must be 0 or more, not \(limit)"
        }
    }
}

/// `latency`: time budgets for the attempt, in milliseconds.
public struct LatencyBudget: Codable, Equatable, Sendable {
    /// The most wall-clock time for the whole attempt.
    public var maxMilliseconds: Double?
    /// The most time until the first streamed snapshot.
    public var maxTimeToFirstSnapshotMilliseconds: Double?

    /// Creates a time budget; nil limits are unchecked.
    public init(maxMilliseconds: Double? = nil, maxTimeToFirstSnapshotMilliseconds: Double? = nil) {
        self.maxMilliseconds = maxMilliseconds
        self.maxTimeToFirstSnapshotMilliseconds = maxTimeToFirstSnapshotMilliseconds
    }

    /// Budgets that check nothing or can never be met, for suite validation.
    public var problems: [String] {
        if maxMilliseconds == nil, maxTimeToFirstSnapshotMilliseconds == nil {
            return ["latency needs maxMilliseconds, maxTimeToFirstSnapshotMilliseconds or both"]
        }
        return [("maxMilliseconds", maxMilliseconds), ("maxTimeToFirstSnapshotMilliseconds", maxTimeToFirstSnapshotMilliseconds)]
            .compactMap { name, limit in
                guard let limit, !(limit > 0) else { return nil }
                return "\(name) must be above 0, not \(formatScore(limit))"
            }
    }
}

/// `snapshots`: how many streamed snapshots the attempt produced (a tool-only turn yields zero).
public struct SnapshotExpectation: Codable, Equatable, Sendable {
    /// The fewest snapshots.
    public var minimum: Int?
    /// The most snapshots.
    public var maximum: Int?

    /// Creates a snapshot-count check; `exactly(n)` is `minimum == maximum == n`.
    public init(minimum: Int? = nil, maximum: Int? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Bounds that check nothing or can never be met, for suite validation.
    public var problems: [String] {
        if minimum == nil, maximum == nil { return ["snapshots needs minimum, maximum or both"] }
        if let minimum, minimum < 0 { return ["snapshots minimum must be 0 or more, not \(minimum)"] }
        if let minimum, let maximum, minimum > maximum {
            return ["snapshots minimum \(minimum) is above maximum \(maximum)"]
        }
        return []
    }
}
