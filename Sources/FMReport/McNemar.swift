import Foundation

/// McNemar's exact test for paired pass/fail outcomes (the same cases under two variants).
///
/// Only discordant pairs carry information: `onlyA` cases passed under A and failed under B,
/// `onlyB` the reverse. Under the null hypothesis (both variants equally good) each discordant pair
/// is a fair coin, so the two-sided p-value is `min(1, 2 · P(X ≤ min(b, c)))` for X ~ Binomial(b + c, ½).
public enum McNemar {
    /// The two-sided exact p-value for `onlyA` and `onlyB` discordant pairs (1 when there are none).
    public static func exactPValue(onlyA: Int, onlyB: Int) -> Double {
        let b = max(0, onlyA), c = max(0, onlyB)
        let n = b + c
        guard n > 0 else { return 1 }
        let k = min(b, c)
        if b == c { return 1 }
        // Sum the lower tail in log space so large n cannot overflow or underflow before scaling.
        let logHalfToN = Double(n) * -M_LN2
        var terms: [Double] = []
        terms.reserveCapacity(k + 1)
        for i in 0...k { terms.append(logChoose(n, i) + logHalfToN) }
        let largest = terms.max() ?? 0
        let tail = exp(largest) * terms.reduce(0) { $0 + exp($1 - largest) }
        return min(1, 2 * tail)
    }

    /// log(n choose k) via log-gamma.
    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}

/// The paired comparison of two variants (or two result files) over the cases they share.
public struct PairedComparison: Codable, Equatable, Sendable {
    /// Cases that passed under both.
    public var bothPass: Int
    /// Cases that passed under A only (B regressed them).
    public var onlyA: Int
    /// Cases that passed under B only (B fixed them).
    public var onlyB: Int
    /// Cases that failed under both.
    public var bothFail: Int

    /// A comparison from its four cells.
    public init(bothPass: Int, onlyA: Int, onlyB: Int, bothFail: Int) {
        self.bothPass = bothPass
        self.onlyA = onlyA
        self.onlyB = onlyB
        self.bothFail = bothFail
    }

    /// Tallies paired outcomes: `(passedA, passedB)` for each shared case.
    public init<Pairs: Sequence>(pairs: Pairs) where Pairs.Element == (Bool, Bool) {
        self.init(bothPass: 0, onlyA: 0, onlyB: 0, bothFail: 0)
        for (a, b) in pairs {
            switch (a, b) {
            case (true, true): bothPass += 1
            case (true, false): onlyA += 1
            case (false, true): onlyB += 1
            case (false, false): bothFail += 1
            }
        }
    }

    /// Number of paired cases.
    public var total: Int { bothPass + onlyA + onlyB + bothFail }
    /// McNemar's exact two-sided p-value.
    public var pValue: Double { McNemar.exactPValue(onlyA: onlyA, onlyB: onlyB) }
    /// Pass count under A.
    public var passesA: Int { bothPass + onlyA }
    /// Pass count under B.
    public var passesB: Int { bothPass + onlyB }
}
