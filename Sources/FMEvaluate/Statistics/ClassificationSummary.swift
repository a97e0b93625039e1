import FMCore

/// One classified attempt: the label the case expected and what the model produced.
public struct ClassificationObservation: Codable, Equatable, Sendable {
    /// The expected label.
    public var expected: String
    /// The produced value as text; nil when the attempt produced nothing usable.
    public var predicted: String?

    /// Creates an observation.
    public init(expected: String, predicted: String?) {
        self.expected = expected
        self.predicted = predicted
    }
}

/// Precision, recall and F1 of one label; nil where the ratio is undefined (nothing to divide by).
public struct LabelScores: Codable, Equatable, Sendable {
    /// The label.
    public var label: String
    /// Attempts whose expected label this is.
    public var support: Int
    /// Correct predictions of this label over all predictions of it.
    public var precision: Double?
    /// Correct predictions of this label over all attempts expecting it.
    public var recall: Double?
    /// Harmonic mean of precision and recall.
    public var f1: Double?
}

/// A suite's classification summary over enum cases: confusion matrix, per-label precision and recall,
/// accuracy and the rate of outputs outside the enum.
public struct ClassificationSummary: Codable, Equatable, Sendable {
    /// The column that counts predictions outside `labels` (including no prediction).
    public static let outOfEnum = "(out of enum)"

    /// The enum's labels, in order; rows and columns of the matrix follow it.
    public var labels: [String]
    /// `matrix[expected][predicted]`: counts, with `outOfEnum` as an extra column.
    public var matrix: [String: [String: Int]]
    /// Per-label scores, in `labels` order.
    public var scores: [LabelScores]
    /// Observations counted.
    public var total: Int
    /// Correct predictions over all observations (0 when there are none).
    public var accuracy: Double
    /// Predictions outside the enum over all observations (0 when there are none).
    public var outOfEnumRate: Double
    /// Mean F1 over labels whose F1 is defined; nil when none is.
    public var macroF1: Double?
    /// Expected labels that are not in `labels` (a suite error worth showing), sorted.
    public var unknownExpectedLabels: [String]

    /// Tallies `observations` over `labels`; observations expecting an unknown label are listed and skipped.
    public init(labels: [String], observations: [ClassificationObservation]) {
        var seen: Set<String> = []
        let ordered = labels.filter { seen.insert($0).inserted }
        self.labels = ordered
        let known = seen
        var matrix: [String: [String: Int]] = [:]
        for label in ordered {
            matrix[label] = Dictionary(uniqueKeysWithValues: (ordered + [Self.outOfEnum]).map { ($0, 0) })
        }
        var unknown: Set<String> = []
        var total = 0, correct = 0, outside = 0
        for observation in observations {
            guard known.contains(observation.expected) else {
                unknown.insert(observation.expected)
                continue
            }
            let column = observation.predicted.flatMap { known.contains($0) ? $0 : nil } ?? Self.outOfEnum
            matrix[observation.expected, default: [:]][column, default: 0] += 1
            total += 1
            if column == observation.expected { correct += 1 }
            if column == Self.outOfEnum { outside += 1 }
        }
        self.matrix = matrix
        self.total = total
        self.accuracy = total > 0 ? Double(correct) / Double(total) : 0
        self.outOfEnumRate = total > 0 ? Double(outside) / Double(total) : 0
        self.unknownExpectedLabels = unknown.sorted()
        let labelScores = ordered.map { label -> LabelScores in
            let truePositives = matrix[label]?[label] ?? 0
            let predicted = ordered.reduce(0) { $0 + (matrix[$1]?[label] ?? 0) }
            let support = matrix[label]?.values.reduce(0, +) ?? 0
            let precision = predicted > 0 ? Double(truePositives) / Double(predicted) : nil
            let recall = support > 0 ? Double(truePositives) / Double(support) : nil
            var f1: Double?
            if let precision, let recall { f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0 }
            return LabelScores(label: label, support: support, precision: precision, recall: recall, f1: f1)
        }
        self.scores = labelScores
        let defined = labelScores.compactMap(\.f1)
        self.macroF1 = defined.isEmpty ? nil : defined.reduce(0, +) / Double(defined.count)
    }

    /// The count of attempts expecting `expected` that produced `predicted` (or `outOfEnum`).
    public func count(expected: String, predicted: String) -> Int {
        matrix[expected]?[predicted] ?? 0
    }
}

extension ClassificationSummary {
    /// Encodes like the synthesized form, but the matrix's rows and columns follow `labels` (then
    /// `outOfEnum`, then any other key, sorted), so the same summary always writes the same bytes.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(labels, forKey: .labels)
        let order = labels + [Self.outOfEnum]
        try container.encode(OrderedObject(matrix.mapValues { OrderedObject($0, order: order) }, order: order), forKey: .matrix)
        try container.encode(scores, forKey: .scores)
        try container.encode(total, forKey: .total)
        try container.encode(accuracy, forKey: .accuracy)
        try container.encode(outOfEnumRate, forKey: .outOfEnumRate)
        try container.encodeIfPresent(macroF1, forKey: .macroF1)
        try container.encode(unknownExpectedLabels, forKey: .unknownExpectedLabels)
    }
}

/// A string-keyed object encoded with its keys in a fixed order (the given ones first, then the rest sorted).
private struct OrderedObject<Value: Encodable>: Encodable {
    let values: [String: Value]
    let keys: [String]

    init(_ values: [String: Value], order: [String]) {
        self.values = values
        let listed = order.filter { values[$0] != nil }
        self.keys = listed + values.keys.filter { !Set(listed).contains($0) }.sorted()
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for key in keys { try container.encode(values[key], forKey: AnyCodingKey(stringValue: key)) }
    }
}
