import Foundation

/// Sample sizes for fmeval's two tests (`fmeval plan`, docs/reports.md "Power planning"): how many trials a
/// pass-rate gate needs, and how many paired cases an A/B comparison needs, to detect a difference `d` with
/// two-sided significance `alpha` and the given power. Both use the normal approximation, so they are
/// planning figures ("about N"), not guarantees.
public enum PowerPlan {
    /// The two-sided significance level both plans assume.
    public static let alpha = 0.05
    /// The power `fmeval plan` aims for unless `--power` says otherwise.
    public static let defaultPower = 0.8

    /// Trials for a one-sample test of a pass rate to see it drop from `passRate` (p₀) by `drop` (d):
    ///
    ///     n = ( z₁₋α/₂ · √(p₀(1 − p₀)) + z_power · √(p₁(1 − p₁)) )² / d²,   p₁ = p₀ − d
    ///
    /// the null's spread at the critical value plus the alternative's at the power quantile, over the
    /// effect. nil when the drop cannot happen (d ≤ 0, p₀ − d < 0) or an argument is outside (0, 1).
    public static func gateTrials(passRate: Double, drop: Double, power: Double = defaultPower,
                                  alpha: Double = alpha) -> Int? {
        guard (0...1).contains(passRate), drop > 0, passRate - drop >= 0, valid(power), valid(alpha) else {
            return nil
        }
        let p0 = passRate, p1 = passRate - drop
        let spread = normalQuantile(1 - alpha / 2) * (p0 * (1 - p0)).squareRoot()
            + normalQuantile(power) * (p1 * (1 - p1)).squareRoot()
        return roundedUp(spread * spread / (drop * drop))
    }

    /// Paired cases for McNemar's test to see a difference `difference` (δ, the gap between the two
    /// variants' pass rates) when a share `discordance` (ψ) of the cases gets different verdicts under the
    /// two variants (Connor 1987):
    ///
    ///     n = ( z₁₋α/₂ · √ψ + z_power · √(ψ − δ²) )² / δ²
    ///
    /// Only discordant pairs carry evidence, so a larger ψ for the same δ needs more cases. ψ below |δ| is
    /// impossible (every case that moves the rate is discordant) and is raised to |δ|. nil when δ is 0, |δ| or
    /// ψ is above 1, or power or alpha is outside (0, 1).
    public static func pairedCases(discordance: Double, difference: Double, power: Double = defaultPower,
                                   alpha: Double = alpha) -> Int? {
        let delta = abs(difference)
        guard delta > 0, delta <= 1, discordance <= 1, valid(power), valid(alpha) else { return nil }
        let psi = max(discordance, delta)
        let spread = normalQuantile(1 - alpha / 2) * psi.squareRoot()
            + normalQuantile(power) * (psi - delta * delta).squareRoot()
        return roundedUp(spread * spread / (delta * delta))
    }

    /// The paired cases McNemar's test needs to detect the difference a 2×2 table shows (`onlyA` cases pass
    /// only on side A, `onlyB` only on B, of `total`), at its discordance; nil when nothing was paired or the
    /// sides agree on the rate.
    public static func pairsNeeded(onlyA: Int, onlyB: Int, total: Int) -> Int? {
        guard total > 0 else { return nil }
        return pairedCases(discordance: Double(onlyA + onlyB) / Double(total),
                           difference: Double(onlyB - onlyA) / Double(total))
    }

    /// `a difference this size needs about N paired cases; you have M` when the table's difference is not
    /// significant at `alpha` (McNemar's exact test) and it has fewer pairs than that; nil otherwise.
    public static func underpoweredNote(onlyA: Int, onlyB: Int, total: Int) -> String? {
        guard McNemar.exactPValue(onlyA: onlyA, onlyB: onlyB) >= alpha,
              let needed = pairsNeeded(onlyA: onlyA, onlyB: onlyB, total: total), needed > total else { return nil }
        return "a difference this size needs about \(needed) paired cases; you have \(total)"
    }

    /// Cases needed to make `trials` attempts at `repeats` attempts per case: ⌈trials / repeats⌉.
    public static func cases(trials: Int, repeats: Int) -> Int {
        let perCase = max(1, repeats)
        return (max(0, trials) + perCase - 1) / perCase
    }

    /// The standard normal quantile Φ⁻¹(p): a rational approximation in three regions (a central one in
    /// (p − ½)², two tails in √(−2 ln p)), relative error about 1e-9, then one Halley step on Φ(x) − p
    /// (Φ from `erfc`) that brings it to double precision. −∞ at 0, +∞ at 1, NaN outside [0, 1].
    public static func normalQuantile(_ p: Double) -> Double {
        guard p > 0, p < 1 else {
            if p == 0 { return -.infinity }
            return p == 1 ? .infinity : .nan
        }
        let lowTail = 0.02425
        let x: Double
        if p < lowTail {
            x = tail((-2 * log(p)).squareRoot())
        } else if p > 1 - lowTail {
            x = -tail((-2 * log(1 - p)).squareRoot())
        } else {
            x = central(p - 0.5)
        }
        let error = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let step = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        return x - step / (1 + x * step / 2)
    }

    /// The central region's rational function of q = p − ½.
    private static func central(_ q: Double) -> Double {
        let r = q * q
        let top = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
                   -3.066479806614716e+01, 2.506628277459239e+00]
        let bottom = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                      -1.328068155288572e+01, 1]
        return q * horner(top, r) / horner(bottom, r)
    }

    /// The lower tail's rational function of q = √(−2 ln p).
    private static func tail(_ q: Double) -> Double {
        let top = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
                   4.374664141464968e+00, 2.938163982698783e+00]
        let bottom = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00, 1]
        return horner(top, q) / horner(bottom, q)
    }

    /// The polynomial with `coefficients` (highest power first) at `x`.
    private static func horner(_ coefficients: [Double], _ x: Double) -> Double {
        coefficients.reduce(0) { $0 * x + $1 }
    }

    private static func valid(_ probability: Double) -> Bool { probability > 0 && probability < 1 }

    /// ⌈value⌉ (at least 1), forgiving the last bits of rounding so an exact integer is not bumped up.
    private static func roundedUp(_ value: Double) -> Int? {
        guard value.isFinite else { return nil }
        return max(1, Int((value - 1e-9).rounded(.up)))
    }
}
