/// The Wilson score interval for a pass rate: a confidence interval that stays inside [0, 1] and
/// behaves well for few attempts and for rates near 0 or 1.
public struct WilsonInterval: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The lower bound of the interval.
    public var lower: Double
    /// The upper bound of the interval.
    public var upper: Double

    /// The two-sided 95 % normal quantile.
    public static let z95 = 1.959963984540054

    /// Creates an interval from its bounds.
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// The interval for `successes` out of `trials` at normal quantile `z`; no trials gives [0, 1].
    public init(successes: Int, trials: Int, z: Double = WilsonInterval.z95) {
        guard trials > 0 else {
            self.init(lower: 0, upper: 1)
            return
        }
        let n = Double(trials)
        let rate = Double(min(max(successes, 0), trials)) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let center = (rate + z2 / (2 * n)) / denominator
        let half = z / denominator * (rate * (1 - rate) / n + z2 / (4 * n * n)).squareRoot()
        self.init(lower: max(0, center - half), upper: min(1, center + half))
    }

    /// `[lower, upper]` with three decimals.
    public var description: String { "[\(formatScore((lower * 1000).rounded() / 1000)), \(formatScore((upper * 1000).rounded() / 1000))]" }
}
