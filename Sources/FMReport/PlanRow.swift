import Foundation

/// One line of `fmeval plan`: the pass-rate gate of one suite configuration, or one A/B pair of a suite's
/// variants, with what detecting the difference asked for needs (`PowerPlan`) against what the suite has.
public struct PlanRow: Codable, Equatable, Sendable {
    /// Which test the line plans for.
    public enum Test: String, Codable, Sendable {
        /// A pass-rate gate: a one-sample test of the configuration's pass rate.
        case gate
        /// A paired A/B comparison of two variants: McNemar's test.
        case ab
    }

    /// `suite`, or `suite@variant` for one variant's gate (the run history's name for it).
    public var suite: String
    /// The test planned for.
    public var test: Test
    /// The A/B pair, `reference vs variant`; nil for a gate.
    public var pair: String?
    /// Cases the suite has now (for A/B: cases run under both variants).
    public var cases: Int
    /// Attempts per case (the mean, rounded down, when the cases differ).
    public var repeats: Int
    /// The measured pass rate (gate) or share of discordant cases (A/B); nil when the history has none.
    public var measured: Double?
    /// The history run `measured` comes from.
    public var measuredRun: Int?
    /// The rate the plan used: `measured`, else 0.5 (gate) or twice the difference (A/B).
    public var used: Double
    /// The difference to detect (a fraction).
    public var detect: Double
    /// The power aimed for.
    public var power: Double
    /// Trials (gate) or paired cases (A/B) needed; nil when the difference cannot happen at `used`.
    public var needed: Int?
    /// Cases needed at the current repeats (A/B: the paired cases; repeats do not add pairs).
    public var casesNeeded: Int?

    /// The gate of `suite` (with `cases` at `repeats` attempts each) for a drop of `detect` from its
    /// measured pass rate, or from 0.5 when `passRate` is nil.
    public static func gate(suite: String, cases: Int, repeats: Int, passRate: Double?, run: Int?, detect: Double,
                            power: Double) -> PlanRow {
        let used = passRate ?? 0.5
        let trials = PowerPlan.gateTrials(passRate: used, drop: detect, power: power)
        return PlanRow(suite: suite, test: .gate, pair: nil, cases: cases, repeats: repeats, measured: passRate,
                       measuredRun: run, used: used, detect: detect, power: power, needed: trials,
                       casesNeeded: trials.map { PowerPlan.cases(trials: $0, repeats: repeats) })
    }

    /// The A/B pair `reference vs variant` of `suite` over `cases` shared cases, for a difference of
    /// `detect`; the discordance is the measured one, or `2 · detect` (at most 1) when `discordance` is nil.
    public static func ab(suite: String, reference: String, variant: String, cases: Int, repeats: Int,
                          discordance: Double?, run: Int?, detect: Double, power: Double) -> PlanRow {
        let used = discordance ?? min(1, 2 * detect)
        let pairs = PowerPlan.pairedCases(discordance: used, difference: detect, power: power)
        return PlanRow(suite: suite, test: .ab, pair: "\(reference) vs \(variant)", cases: cases, repeats: repeats,
                       measured: discordance, measuredRun: run, used: used, detect: detect, power: power,
                       needed: pairs, casesNeeded: pairs)
    }

    /// True when the suite has at least the cases needed.
    public var enough: Bool { casesNeeded.map { cases >= $0 } ?? false }

    /// `enough`, `underpowered: needs about N cases; you have M`, or why no number can be given.
    public var verdict: String {
        guard let casesNeeded else {
            return "cannot drop \(PlanText.percent(detect)) below \(PlanText.percent(used))"
        }
        if enough { return "enough" }
        let unit = test == .ab ? "paired cases" : "cases"
        return "underpowered: needs about \(casesNeeded) \(unit); you have \(cases)"
    }
}

/// The text of `fmeval plan`: one table of every `PlanRow`.
public enum PlanText {
    /// The header and one line per row, columns padded to their widest cell.
    public static func table(_ rows: [PlanRow]) -> String {
        let header = ["suite", "test", "cases", "repeats", "measured", "needed", "cases needed", "verdict"]
        let cells = rows.map { row -> [String] in
            [row.suite, row.pair.map { "A/B \($0)" } ?? "gate", "\(row.cases)", "\(row.repeats)", measured(row),
             row.needed.map { "\($0) \(row.test == .ab ? "pairs" : "trials")" } ?? "-",
             row.casesNeeded.map(String.init) ?? "-", row.verdict]
        }
        let all = [header] + cells
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let numeric: Set<Int> = [2, 3, 6]
        return all.map { line in
            line.indices.map { column -> String in
                let text = line[column], gap = String(repeating: " ", count: widths[column] - text.count)
                if column == line.count - 1 { return text }
                return numeric.contains(column) ? gap + text : text + gap
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The measured rate and its run, or what was assumed: `80.0% (run #3)`, `unknown (50.0% assumed)`.
    static func measured(_ row: PlanRow) -> String {
        let what = row.test == .ab ? " discordant" : ""
        guard let value = row.measured else { return "unknown (\(percent(row.used))\(what) assumed)" }
        return "\(percent(value))\(what)" + (row.measuredRun.map { " (run #\($0))" } ?? "")
    }

    /// A fraction as a percentage with one decimal: `5.0%`.
    public static func percent(_ fraction: Double) -> String { Fixed.format(fraction * 100, 1) + "%" }
}
