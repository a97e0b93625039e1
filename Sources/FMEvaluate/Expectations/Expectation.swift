/// One check a case makes on each attempt; a case holds a list of them and an attempt passes when all hold.
///
/// Codable as a one-key object naming the kind, `{"contains": {...}}`, the shape suites are written in.
public indirect enum Expectation: Codable, Equatable, Sendable {
    /// The output equals a value.
    case equals(EqualsExpectation)
    /// The output equals one of several values.
    case oneOf(OneOfExpectation)
    /// The output text contains substrings.
    case contains(ContainsExpectation)
    /// The output text matches a regular expression.
    case regex(RegexExpectation)
    /// The inner expectation does not hold.
    case not(Expectation)
    /// Violations of a GenerationSchema stay within budgets.
    case constraints(ConstraintExpectation)
    /// The tool calls follow a trajectory.
    case toolCalls(TrajectoryExpectation)
    /// The attempt ends in an expected error.
    case error(ErrorExpectation)
    /// Token usage stays within budgets.
    case usage(UsageBudget)
    /// Time stays within budgets.
    case latency(LatencyBudget)
    /// The number of streamed snapshots is within bounds.
    case snapshots(SnapshotExpectation)
    /// A model judges the response.
    case judge(JudgeConfig)
    /// An external program judges the response.
    case command(CommandConfig)

    /// The kind's keyword as written in suites.
    public var kind: String {
        switch self {
        case .equals: return "equals"
        case .oneOf: return "oneOf"
        case .contains: return "contains"
        case .regex: return "regex"
        case .not: return "not"
        case .constraints: return "constraints"
        case .toolCalls: return "toolCalls"
        case .error: return "error"
        case .usage: return "usage"
        case .latency: return "latency"
        case .snapshots: return "snapshots"
        case .judge: return "judge"
        case .command: return "command"
        }
    }

    /// Every keyword suites may use for an expectation (`schema` is a synonym of `constraints`).
    public static let kinds = ["equals", "oneOf", "contains", "regex", "not", "constraints", "schema", "toolCalls",
                               "error", "usage", "latency", "snapshots", "judge", "command"]

    /// Reasons this expectation cannot work as written, for suite validation to report with a location.
    public var problems: [String] {
        switch self {
        case .equals, .error: return []
        case .oneOf(let check): return check.values.isEmpty ? ["oneOf needs at least one value"] : []
        case .contains(let check): return check.problems
        case .regex(let check): return check.patternProblem.map { [$0] } ?? []
        case .not(let inner): return inner.problems.map { "not: \($0)" }
        case .constraints(let check): return check.problems
        case .toolCalls(let check): return check.problems
        case .usage(let check): return check.problems
        case .latency(let check): return check.problems
        case .snapshots(let check): return check.problems
        case .judge(let check): return check.problems
        case .command(let check): return check.problems
        }
    }

    /// Whether this expectation expects the attempt to end in an error (then an error is scored, not an infrastructure failure).
    public var expectsError: Bool {
        switch self {
        case .error: return true
        default: return false
        }
    }

    /// The judge-engine names this expectation needs, so the runner can set them up before running.
    public var judgeEngines: [String?] {
        switch self {
        case .judge(let config): return [config.engine]
        case .not(let inner): return inner.judgeEngines
        case .toolCalls(let trajectory):
            let usesJudge = (trajectory.ordered.flatMap(\.calls) + trajectory.unordered + trajectory.disallowed)
                .flatMap(\.arguments)
                .contains { if case .naturalLanguage = $0 { return true } else { return false } }
            return usesJudge ? [trajectory.judgeEngine] : []
        default: return []
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a one-key object `{KIND: PAYLOAD}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            let found = container.allKeys.map(\.stringValue).sorted().joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "an expectation is one key naming its kind (found: \(found.isEmpty ? "none" : found)); one of \(Self.kinds.joined(separator: ", "))"))
        }
        switch key.stringValue {
        case "equals": self = .equals(try container.decode(EqualsExpectation.self, forKey: key))
        case "oneOf": self = .oneOf(try container.decode(OneOfExpectation.self, forKey: key))
        case "contains": self = .contains(try container.decode(ContainsExpectation.self, forKey: key))
        case "regex": self = .regex(try container.decode(RegexExpectation.self, forKey: key))
        case "not": self = .not(try container.decode(Expectation.self, forKey: key))
        case "constraints", "schema": self = .constraints(try container.decode(ConstraintExpectation.self, forKey: key))
        case "toolCalls": self = .toolCalls(try container.decode(TrajectoryExpectation.self, forKey: key))
        case "error": self = .error(try container.decode(ErrorExpectation.self, forKey: key))
        case "usage": self = .usage(try container.decode(UsageBudget.self, forKey: key))
        case "latency": self = .latency(try container.decode(LatencyBudget.self, forKey: key))
        case "snapshots": self = .snapshots(try container.decode(SnapshotExpectation.self, forKey: key))
        case "judge": self = .judge(try container.decode(JudgeConfig.self, forKey: key))
        case "command": self = .command(try container.decode(CommandConfig.self, forKey: key))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown expectation '\(key.stringValue)'; use one of \(Self.kinds.joined(separator: ", "))")
        }
    }

    /// Encodes `{KIND: PAYLOAD}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let key = Key(kind)
        switch self {
        case .equals(let payload): try container.encode(payload, forKey: key)
        case .oneOf(let payload): try container.encode(payload, forKey: key)
        case .contains(let payload): try container.encode(payload, forKey: key)
        case .regex(let payload): try container.encode(payload, forKey: key)
        case .not(let payload): try container.encode(payload, forKey: key)
        case .constraints(let payload): try container.encode(payload, forKey: key)
        case .toolCalls(let payload): try container.encode(payload, forKey: key)
        case .error(let payload): try container.encode(payload, forKey: key)
        case .usage(let payload): try container.encode(payload, forKey: key)
        case .latency(let payload): try container.encode(payload, forKey: key)
        case .snapshots(let payload): try container.encode(payload, forKey: key)
        case .judge(let payload): try container.encode(payload, forKey: key)
        case .command(let payload): try container.encode(payload, forKey: key)
        }
    }
}
