import FMEvaluate
import FMRun

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

    /// Side A (the reference: first variant, or the base file).
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
            rows.append(Row(key: name, statusA: result.status, statusB: other.status, passedA: result.gateHolds,
                            passedB: other.gateHolds, passRateA: result.passRate, passRateB: other.passRate))
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

    /// Compares every variant of `run` with its first one (the run's first listed variant, else the base),
    /// pairing cases by suite and case id. Empty when the run has fewer than two configurations.
    public static func variants(of run: RunResult) -> [ABComparison] {
        var order: [String?] = []
        var byVariant: [String: [CaseResult]] = [:]
        for result in run.cases {
            let name = result.variant ?? ""
            if byVariant[name] == nil { order.append(result.variant) }
            byVariant[name, default: []].append(result)
        }
        let listed = run.run.variants.filter { byVariant[$0] != nil }
        let reference: String? = listed.first ?? order.first ?? nil
        guard order.count >= 2 else { return [] }
        let referenceName = reference ?? ""
        let referenceCases = byVariant[referenceName] ?? []
        let pairKey: (CaseResult) -> String = { "\($0.suite)/\($0.caseID)" }
        return order.compactMap { variant -> ABComparison? in
            let name = variant ?? ""
            guard name != referenceName else { return nil }
            return ABComparison(nameA: reference ?? "base", casesA: referenceCases,
                                nameB: variant ?? "base", casesB: byVariant[name] ?? [], key: pairKey)
        }
    }

    /// Compares two result files case by case (by full case id).
    public static func files(base: RunResult, baseName: String, candidate: RunResult, candidateName: String) -> ABComparison {
        ABComparison(nameA: baseName, casesA: base.cases, nameB: candidateName, casesB: candidate.cases, key: \.id)
    }
}

extension ABComparison.Side {
    /// A side from its counts; the interval is Wilson 95 %.
    init(name: String, passes: Int, cases: Int) {
        self.init(name: name, passes: passes, cases: cases,
                  passRate: cases == 0 ? 0 : Double(passes) / Double(cases),
                  interval: WilsonInterval(successes: passes, trials: cases))
    }
}
