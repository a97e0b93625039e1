import FMCore

/// One expected tool call: a tool name and checks on its arguments (Apple's `ToolExpectation`).
public struct ToolCallExpectation: Codable, Equatable, Sendable {
    /// The tool's name.
    public var name: String
    /// Checks on the call's arguments; all must hold. Empty matches any arguments.
    public var arguments: [ArgumentMatcher]
    /// Whether the call may carry arguments no matcher names (true, the default); false makes each such
    /// argument, at any depth a matcher reaches into, a failure of the call.
    public var allowsAdditionalArguments: Bool

    /// Creates an expected call.
    public init(_ name: String, arguments: [ArgumentMatcher] = [], allowsAdditionalArguments: Bool = true) {
        self.name = name
        self.arguments = arguments
        self.allowsAdditionalArguments = allowsAdditionalArguments
    }

    private enum CodingKeys: String, CodingKey { case name, arguments, allowsAdditionalArguments }

    /// Decodes `{"name", "arguments"?: [matcher], "allowsAdditionalArguments"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        arguments = try container.decodeIfPresent([ArgumentMatcher].self, forKey: .arguments) ?? []
        allowsAdditionalArguments = try container.decodeIfPresent(Bool.self, forKey: .allowsAdditionalArguments) ?? true
    }

    /// Encodes the shape `init(from:)` reads (`allowsAdditionalArguments` only when false).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(arguments, forKey: .arguments)
        if !allowsAdditionalArguments { try container.encode(false, forKey: .allowsAdditionalArguments) }
    }

    /// `name(arg: keyword, …)` for rationales.
    var summary: String {
        guard !arguments.isEmpty || !allowsAdditionalArguments else { return name }
        let listed = arguments.map { "\($0.argumentName)\($0.modifiers.isOptional ? "?" : ""): \($0.keyword)" }
        return "\(name)(" + (listed + (allowsAdditionalArguments ? [] : ["nothing else"])).joined(separator: ", ") + ")"
    }
}

/// One position of an ordered trajectory: a single call, or an `anyOrder` group of calls that may
/// come in any order among themselves but together occupy one position in the sequence.
public enum ToolExpectation: Codable, Equatable, Sendable {
    /// A single expected call.
    case call(ToolCallExpectation)
    /// Calls that must all happen, in any order, at this position.
    case anyOrder([ToolCallExpectation])

    /// The calls this position expects.
    public var calls: [ToolCallExpectation] {
        switch self {
        case .call(let call): return [call]
        case .anyOrder(let calls): return calls
        }
    }

    private enum CodingKeys: String, CodingKey { case anyOrder }

    /// Decodes a call object, or `{"anyOrder": [call]}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.anyOrder) {
            self = .anyOrder(try container.decode([ToolCallExpectation].self, forKey: .anyOrder))
        } else {
            self = .call(try ToolCallExpectation(from: decoder))
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .call(let call): try call.encode(to: encoder)
        case .anyOrder(let calls):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(calls, forKey: .anyOrder)
        }
    }
}

/// Which trajectory metric decides the attempt.
public enum TrajectoryMetric: String, Codable, Equatable, Sendable {
    /// Strict: every expectation met, no disallowed call, no unexpected call when extras are banned.
    case allPass
    /// Matched expectations over all expectations (plus unexpected calls when extras are banned),
    /// compared with `TrajectoryExpectation.minimumPercentage`.
    case percentagePass
}

/// Expectations over the tool calls of an attempt, with Apple Evaluations' `TrajectoryExpectation` semantics.
///
/// Ordered positions are matched in sequence through the transcript; unordered calls anywhere, by an
/// optimal assignment; disallowed entries ban a tool (or, with matchers, only calls whose arguments match).
public struct TrajectoryExpectation: Codable, Equatable, Sendable {
    /// Positions that must occur in this order (each position a call or an `anyOrder` group).
    public var ordered: [ToolExpectation]
    /// Calls that must occur anywhere, each matched to a distinct call.
    public var unordered: [ToolCallExpectation]
    /// Calls that must not occur (a bare name bans the tool; matchers ban only matching calls).
    public var disallowed: [ToolCallExpectation]
    /// Whether calls beyond the expected ones are ignored (true, Apple's default) or fail the trajectory.
    public var allowsAdditionalToolCalls: Bool
    /// Which metric gates the attempt.
    public var metric: TrajectoryMetric
    /// For `percentagePass`: the least percentage (0…1) that passes.
    public var minimumPercentage: Double
    /// The engine that decides `naturalLanguage` matchers (Apple's `argumentMatchModel`); nil uses the run's engine.
    public var judgeEngine: String?
    /// The most violations of the tools' own argument schemas allowed over all calls; nil (with no
    /// per-keyword budget) leaves them ungated.
    public var maxViolations: Int?
    /// The most argument-schema violations allowed per keyword (`type`, `additionalProperties`, …).
    public var maxViolationsPerKeyword: [String: Int]

    /// Whether the calls' arguments are checked against their tools' schemas within budgets.
    public var checksArgumentSchemas: Bool { maxViolations != nil || !maxViolationsPerKeyword.isEmpty }

    /// Creates a trajectory expectation; `disallowed` entries imply additional calls are allowed (as in Apple's API).
    public init(ordered: [ToolExpectation] = [], unordered: [ToolCallExpectation] = [],
                disallowed: [ToolCallExpectation] = [], allowsAdditionalToolCalls: Bool = true,
                metric: TrajectoryMetric = .allPass, minimumPercentage: Double = 1, judgeEngine: String? = nil,
                maxViolations: Int? = nil, maxViolationsPerKeyword: [String: Int] = [:]) {
        self.ordered = ordered
        self.unordered = unordered
        self.disallowed = disallowed
        self.allowsAdditionalToolCalls = allowsAdditionalToolCalls
        self.metric = metric
        self.minimumPercentage = minimumPercentage
        self.judgeEngine = judgeEngine
        self.maxViolations = maxViolations
        self.maxViolationsPerKeyword = maxViolationsPerKeyword
    }

    /// Exactly one call to `toolName` whose arguments meet `arguments` (Apple's `init(expected:arguments:)`).
    public static func expected(_ toolName: String, arguments: [ArgumentMatcher] = []) -> TrajectoryExpectation {
        TrajectoryExpectation(ordered: [.call(ToolCallExpectation(toolName, arguments: arguments))])
    }

    /// Reasons this expectation is contradictory or empty, for suite validation to report with a location.
    public var problems: [String] {
        var found: [String] = []
        if !disallowed.isEmpty && !allowsAdditionalToolCalls {
            found.append("disallowed cannot be combined with allowsAdditionalToolCalls: false (a disallowed list already allows every other call); drop one of them")
        }
        if ordered.isEmpty && unordered.isEmpty && disallowed.isEmpty && allowsAdditionalToolCalls {
            found.append("toolCalls expects nothing: add ordered, unordered or disallowed calls, or set allowsAdditionalToolCalls: false to require no calls")
        }
        if !(0...1).contains(minimumPercentage) {
            found.append("minimumPercentage \(formatScore(minimumPercentage)) must be between 0 and 1")
        }
        for position in ordered {
            if case .anyOrder(let calls) = position, calls.isEmpty { found.append("an anyOrder group needs at least one call") }
        }
        if let maxViolations, maxViolations < 0 { found.append("maxViolations must be 0 or more, not \(maxViolations)") }
        let known = Violation.Keyword.allCases.map(\.rawValue)
        for (keyword, limit) in maxViolationsPerKeyword.sorted(by: { $0.key < $1.key }) {
            if !known.contains(keyword) {
                found.append("maxViolationsPerKeyword: unknown keyword '\(keyword)'; use one of \(known.joined(separator: ", "))")
            }
            if limit < 0 { found.append("maxViolationsPerKeyword.\(keyword) must be 0 or more, not \(limit)") }
        }
        let every = ordered.flatMap(\.calls) + unordered + disallowed
        for call in every {
            if call.name.isEmpty { found.append("a tool call expectation needs a name") }
            found.append(contentsOf: call.arguments.compactMap(\.problem).map { "tool '\(call.name)': \($0)" })
        }
        return found
    }

    private enum CodingKeys: String, CodingKey {
        case ordered, unordered, disallowed, allowsAdditionalToolCalls, metric, minimumPercentage, judgeEngine
        case maxViolations, maxViolationsPerKeyword
    }

    /// Decodes the suite shape; absent lists are empty, extras allowed by default, metric `allPass`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ordered = try container.decodeIfPresent([ToolExpectation].self, forKey: .ordered) ?? []
        unordered = try container.decodeIfPresent([ToolCallExpectation].self, forKey: .unordered) ?? []
        disallowed = try container.decodeIfPresent([ToolCallExpectation].self, forKey: .disallowed) ?? []
        allowsAdditionalToolCalls = try container.decodeIfPresent(Bool.self, forKey: .allowsAdditionalToolCalls) ?? true
        metric = try container.decodeIfPresent(TrajectoryMetric.self, forKey: .metric) ?? .allPass
        minimumPercentage = try container.decodeIfPresent(Double.self, forKey: .minimumPercentage) ?? 1
        judgeEngine = try container.decodeIfPresent(String.self, forKey: .judgeEngine)
        maxViolations = try container.decodeIfPresent(Int.self, forKey: .maxViolations)
        maxViolationsPerKeyword = try container.decodeIfPresent([String: Int].self, forKey: .maxViolationsPerKeyword) ?? [:]
    }
}
