/// One named measurement of an attempt, in Apple Evaluations' vocabulary, with the reason behind it.
public struct Metric: Codable, Equatable, Sendable, CustomStringConvertible {
    /// What a metric measured: a verdict, a score, or nothing to aggregate.
    public enum Value: Equatable, Sendable {
        /// The check held.
        case passing
        /// The check did not hold.
        case failing
        /// A numeric score (for example a percentage of expectations met, or a judge's scale value).
        case scoring(Double)
        /// Recorded for the reader but excluded from aggregation and from the attempt's verdict.
        case ignore
    }

    /// Column-style name, for example `contains` or `toolCalls.percentagePass`.
    public var name: String
    /// The measured value.
    public var value: Value
    /// Why the value is what it is; every failing metric explains itself.
    public var rationale: String?
    /// For a score: the least value that counts as a pass. A score without a threshold is informational.
    public var threshold: Double?
    /// True when the evaluator itself could not give a verdict (it was missing, crashed, timed out,
    /// answered garbage, or its judge engine failed): the attempt is then an `error`, not a model failure.
    public var evaluatorError: Bool

    /// Creates a metric from its parts.
    public init(name: String, value: Value, rationale: String? = nil, threshold: Double? = nil, evaluatorError: Bool = false) {
        self.name = name
        self.value = value
        self.rationale = rationale
        self.threshold = threshold
        self.evaluatorError = evaluatorError
    }

    /// A metric whose check held.
    public static func passing(_ name: String, rationale: String? = nil) -> Metric {
        Metric(name: name, value: .passing, rationale: rationale)
    }

    /// A metric whose check did not hold; the rationale says why.
    public static func failing(_ name: String, rationale: String) -> Metric {
        Metric(name: name, value: .failing, rationale: rationale)
    }

    /// A numeric score, gating the attempt when `threshold` is given.
    public static func scoring(_ name: String, _ score: Double, threshold: Double? = nil, rationale: String? = nil) -> Metric {
        Metric(name: name, value: .scoring(score), rationale: rationale, threshold: threshold)
    }

    /// A metric saying the evaluator could not run or could not give a verdict; `rationale` says why.
    public static func evaluatorError(_ name: String, rationale: String) -> Metric {
        Metric(name: name, value: .failing, rationale: rationale, evaluatorError: true)
    }

    /// A metric kept for the reader but left out of aggregation and verdicts.
    public static func ignore(_ name: String, rationale: String) -> Metric {
        Metric(name: name, value: .ignore, rationale: rationale)
    }

    /// Passing or failing, chosen by `condition`, with one rationale for either outcome.
    public static func check(_ name: String, _ condition: Bool, rationale: String) -> Metric {
        Metric(name: name, value: condition ? .passing : .failing, rationale: rationale)
    }

    /// Apple's mapping to a number: passing 1, failing 0, scoring x, ignore nil — so a mean is a pass rate.
    public var doubleValue: Double? {
        switch value {
        case .passing: return 1
        case .failing: return 0
        case .scoring(let score): return score
        case .ignore: return nil
        }
    }

    /// Whether this metric passes the attempt: nil when it does not take part in the verdict.
    public var verdict: Bool? {
        switch value {
        case .passing: return true
        case .failing: return false
        case .scoring(let score):
            guard let threshold else { return nil }
            return score >= threshold
        case .ignore: return nil
        }
    }

    /// `name: value (rationale)`, as a terminal line.
    public var description: String {
        let shown: String
        switch value {
        case .passing: shown = "passing"
        case .failing: shown = "failing"
        case .scoring(let score):
            shown = threshold.map { "\(formatScore(score)) (needs ≥ \(formatScore($0)))" } ?? formatScore(score)
        case .ignore: shown = "ignored"
        }
        guard let rationale, !rationale.isEmpty else { return "\(name): \(shown)" }
        return "\(name): \(shown) — \(rationale)"
    }

    private enum CodingKeys: String, CodingKey {
        case name, value, score, rationale, threshold, evaluatorError
    }

    /// Non-finite scores as they are written in JSON.
    private static let nonFinite: [String: Double] = ["nan": .nan, "inf": .infinity, "-inf": -.infinity]

    /// Decodes `{"name", "value": "passing|failing|scoring|ignore", "score"?, "rationale"?, "threshold"?}`
    /// (a non-finite score is written `"nan"`, `"inf"` or `"-inf"`), and `"evaluatorError": true` when the evaluator broke.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        rationale = try container.decodeIfPresent(String.self, forKey: .rationale)
        threshold = try container.decodeIfPresent(Double.self, forKey: .threshold)
        evaluatorError = try container.decodeIfPresent(Bool.self, forKey: .evaluatorError) ?? false
        let kind = try container.decode(String.self, forKey: .value)
        switch kind {
        case "passing": value = .passing
        case "failing": value = .failing
        case "ignore": value = .ignore
        case "scoring":
            if let text = try? container.decode(String.self, forKey: .score), let special = Self.nonFinite[text] {
                value = .scoring(special)
            } else {
                value = .scoring(try container.decode(Double.self, forKey: .score))
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .value, in: container,
                debugDescription: "unknown metric value '\(kind)'; use passing, failing, scoring (with score) or ignore")
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch value {
        case .passing: try container.encode("passing", forKey: .value)
        case .failing: try container.encode("failing", forKey: .value)
        case .ignore: try container.encode("ignore", forKey: .value)
        case .scoring(let score):
            try container.encode("scoring", forKey: .value)
            if score.isFinite {
                try container.encode(score, forKey: .score)
            } else {
                // JSON has no NaN or infinity; a results file must still be writable, so these become strings.
                try container.encode(score.isNaN ? "nan" : (score > 0 ? "inf" : "-inf"), forKey: .score)
            }
        }
        try container.encodeIfPresent(rationale, forKey: .rationale)
        try container.encodeIfPresent(threshold, forKey: .threshold)
        if evaluatorError { try container.encode(true, forKey: .evaluatorError) }
    }
}

extension Array where Element == Metric {
    /// The attempt's verdict from its metrics: false if any gating metric fails, true otherwise.
    public var allGatesPass: Bool {
        allSatisfy { $0.verdict != false }
    }

    /// The first metric whose evaluator could not give a verdict, if any.
    public var firstEvaluatorError: Metric? {
        first { $0.evaluatorError }
    }

    /// The metrics that made the attempt fail.
    public var failingMetrics: [Metric] {
        filter { $0.verdict == false }
    }
}

/// Formats a score with up to four decimals and no trailing zeros.
func formatScore(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.4f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}
