import FMEvaluate
import FMResults

/// A paired A/B comparison: the same cases under two variants of one run, or in two result files.
public struct ABComparison: Codable, Sendable {
    /// One shared case and its outcome under each side.
    public struct Row: Codable, Sendable {
        /// The pairing key: `suite/case` for variants of one run, the full case id for two files.
        public var key: String
        /// Status under A.
        public var statusA: CaseStatus
        /// Status under B.
        public var statusB: CaseStatus
        /// Whether the case held its gate under A.
        public var passedA: Bool
        /// Whether the case held its gate under B.
        public var passedB: Bool
        /// Attempt pass rate under A.
        public var passRateA: Double
        /// Attempt pass rate under B.
        public var passRateB: Double

        /// True when the verdict differs between A and B.
        public var flipped: Bool { passedA != passedB }
    }

    /// A side's case-level pass rate and its Wilson 95 % interval.
    public struct Side: Codable, Sendable {
        /// The variant name or file label.
        public var name: String
        /// Shared cases that held their gate.
        public var passes: Int
        /// Shared cases.
        public var cases: Int
        /// passes / cases (0 when there are none).
        public var passRate: Double
        /// Wilson 95 % interval of `passRate`.
        public var interval: WilsonInterval
    }

    /// Side A (the reference: the suite's reference variant, or the base file).
    public var a: Side
    /// Side B (the candidate).
    public var b: Side
    /// Every shared case, in A's order.
    public var rows: [Row]
    /// The 2×2 table of paired verdicts.
    public var table: PairedComparison
    /// McNemar's exact two-sided p-value over the discordant pairs.
    public var pValue: Double
    /// Cases present on one side only (not paired, not counted).
    public var unpaired: [String]
    /// The suite whose variants are compared; nil when comparing two result files.
    public var suite: String?

    /// Pairs `casesA` and `casesB` by `key` (skipped cases are not in either list).
    public init(nameA: String, casesA: [CaseResult], nameB: String, casesB: [CaseResult],
                key: (CaseResult) -> String) {
        var byKeyB: [String: CaseResult] = [:]
        for result in casesB { byKeyB[key(result)] = result }
        var rows: [Row] = []
        var pairedKeys = Set<String>()
        var unpaired: [String] = []
        for result in casesA {
            let name = key(result)
            guard let other = byKeyB[name] else { unpaired.append(name); continue }
            guard pairedKeys.insert(name).inserted else { continue }
            rows.append(Row(key: name, statusA: result.status, statusB: other.status, passedA: PassRate.passes(result),
                            passedB: PassRate.passes(other), passRateA: result.passRate, passRateB: other.passRate))
        }
        for result in casesB where !pairedKeys.contains(key(result)) {
            unpaired.append(key(result))
        }
        let table = PairedComparison(pairs: rows.map { ($0.passedA, $0.passedB) })
        self.rows = rows
        self.table = table
        self.pValue = table.pValue
        self.unpaired = unpaired
        self.a = Side(name: nameA, passes: table.passesA, cases: table.total)
        self.b = Side(name: nameB, passes: table.passesB, cases: table.total)
    }

    /// The rows whose verdict flipped between A and B.
    public var flipped: [Row] { rows.filter(\.flipped) }

    /// Compares, suite by suite, each variant with that suite's reference variant, pairing cases by
    /// suite and case id (see `VariantOrder` for the reference). Suites run under fewer than two
    /// configurations give no comparison; the result is in suite-name order, rows in declared case order.
    public static func variants(of run: RunResult) -> [ABComparison] {
        var bySuite: [String: [CaseResult]] = [:]
        for result in run.cases { bySuite[result.suite, default: []].append(result) }
        let pairKey: (CaseResult) -> String = { "\($0.suite)/\($0.caseID)" }
        return bySuite.keys.sorted().flatMap { suite -> [ABComparison] in
            let cases = bySuite[suite] ?? []
            var byVariant: [String?: [CaseResult]] = [:]
            for result in VariantOrder.declared(cases) { byVariant[result.variant, default: []].append(result) }
            let order = VariantOrder.sorted(Array(byVariant.keys), listed: run.run.variants)
            guard order.count >= 2, let reference = order.first else { return [] }
            return order.dropFirst().map { variant in
                var comparison = ABComparison(nameA: VariantOrder.label(reference), casesA: byVariant[reference] ?? [],
                                              nameB: VariantOrder.label(variant), casesB: byVariant[variant] ?? [],
                                              key: pairKey)
                comparison.suite = suite
                return comparison
            }
        }
    }

    /// Compares two result files case by case (by full case id).
    public static func files(base: RunResult, baseName: String, candidate: RunResult, candidateName: String) -> ABComparison {
        ABComparison(nameA: baseName, casesA: base.cases, nameB: candidateName, casesB: candidate.cases, key: \.id)
    }
}

extension ABComparison.Side {
    /// A side from its counts (`PassRate`'s definition); the interval is Wilson 95 %.
    init(name: String, passes: Int, cases: Int) {
        let rate = PassRate(passing: passes, cases: cases)
        self.init(name: name, passes: passes, cases: cases, passRate: rate.rate, interval: rate.interval)
    }
}

/// The order of one suite's configurations for A/B: the first is the reference (side A).
///
/// Results files do not record a suite's declared variant order, and `cases` is in completion
/// order (which changes with `--jobs`), so the order is rebuilt deterministically: the base
/// configuration (no variant) first, then variants in `--variant` order (`run.variants`), then the
/// rest by name.
public enum VariantOrder {
    /// `variants` (nil: the base configuration) in reference-first order.
    public static func sorted(_ variants: [String?], listed: [String]) -> [String?] {
        let rank = Dictionary(listed.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return variants.sorted { lhs, rhs in
            guard let lhs else { return rhs != nil }
            guard let rhs else { return false }
            switch (rank[lhs], rank[rhs]) {
            case let (l?, r?): return l < r
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return lhs < rhs
            }
        }
    }

    /// `cases` in the order they are declared (by `source` file and line, then case id), not completion order.
    public static func declared(_ cases: [CaseResult]) -> [CaseResult] {
        func position(_ result: CaseResult) -> (file: String, line: Int) {
            result.sourcePosition ?? (result.source ?? "", 0)
        }
        return cases.sorted { lhs, rhs in
            let l = position(lhs), r = position(rhs)
            if l.file != r.file { return l.file < r.file }
            if l.line != r.line { return l.line < r.line }
            return lhs.caseID < rhs.caseID
        }
    }

    /// The name shown for a configuration: the variant name, or `base`.
    public static func label(_ variant: String?) -> String { variant ?? "base" }
}

extension ABComparison {
    /// The paired cases McNemar's test needs to detect the difference observed, at the discordance observed
    /// (`PowerPlan.pairedCases`, power 0.8); nil when no case was paired or the sides' pass rates are equal.
    public var pairsNeeded: Int? {
        PowerPlan.pairsNeeded(onlyA: table.onlyA, onlyB: table.onlyB, total: table.total)
    }

    /// `a difference this size needs about N paired cases; you have M` when the difference is not significant
    /// at 5 % and the comparison has fewer cases than that; nil otherwise.
    public var underpoweredNote: String? {
        PowerPlan.underpoweredNote(onlyA: table.onlyA, onlyB: table.onlyB, total: table.total)
    }
}
