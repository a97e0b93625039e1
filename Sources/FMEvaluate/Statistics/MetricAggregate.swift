/// Summary statistics of one metric over many attempts or cases (Apple's aggregation operations),
/// from `Metric.doubleValue`: ignored metrics and non-finite scores are left out.
public struct MetricAggregate: Codable, Equatable, Sendable {
    /// The metric's name.
    public var name: String
    /// Values aggregated.
    public var count: Int
    /// Metrics left out (ignored, or a non-finite score).
    public var excluded: Int
    /// Arithmetic mean (for a pass/fail metric, the pass rate); nil when nothing was aggregated.
    public var mean: Double?
    /// Middle value (mean of the two middle values for an even count).
    public var median: Double?
    /// Smallest value.
    public var minimum: Double?
    /// Largest value.
    public var maximum: Double?
    /// Sample standard deviation (n − 1); nil for fewer than two values.
    public var standardDeviation: Double?

    /// Aggregates the values of `metrics` that share `name`.
    public init(name: String, metrics: [Metric]) {
        self.name = name
        let named = metrics.filter { $0.name == name }
        let values = named.compactMap(\.doubleValue).filter(\.isFinite).sorted()
        count = values.count
        excluded = named.count - values.count
        guard let first = values.first, let last = values.last else { return }
        let total = values.reduce(0, +)
        let mean = total / Double(values.count)
        self.mean = mean
        minimum = first
        maximum = last
        let middle = values.count / 2
        median = values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
        if values.count > 1 {
            let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            standardDeviation = (squares / Double(values.count - 1)).squareRoot()
        }
    }

    /// One aggregate per metric name in `metrics`, in order of first appearance.
    public static func all(_ metrics: [Metric]) -> [MetricAggregate] {
        var seen: Set<String> = []
        let names = metrics.map(\.name).filter { seen.insert($0).inserted }
        return names.map { MetricAggregate(name: $0, metrics: metrics) }
    }
}
