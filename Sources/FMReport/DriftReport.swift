import FMEvaluate
import FMResults

/// `fmeval history drift`: every case whose verdict flipped between two runs, by cause (the model, the
/// case, both, neither), with the model each run used.
public struct DriftReport: Encodable, Sendable {
    /// One flipped case.
    public struct Flip: Encodable, Sendable {
        /// The stable case id.
        public var id: String
        /// `regression` or `fixed`.
        public var change: BaselineChange
        /// Its status in the earlier run.
        public var before: CaseStatus?
        /// Its status in the later run.
        public var after: CaseStatus?
        /// Why it flipped; nil when a side has no definition hash (results from an older fmeval).
        public var cause: DriftCause?
    }

    /// The earlier run's label (`#3`).
    public var from: String
    /// The later run's label.
    public var to: String
    /// The model of the earlier run's default engine.
    public var modelFrom: String
    /// The model of the later run's default engine.
    public var modelTo: String
    /// The flipped cases, in the later run's order.
    public var flips: [Flip]

    /// The flips of `later` against `earlier`.
    public init(from earlier: RunResult, label fromLabel: String, to later: RunResult, label toLabel: String) {
        from = fromLabel
        to = toLabel
        modelFrom = ModelIdentity.of(earlier.run.fingerprint.engine, fingerprint: earlier.run.fingerprint)
        modelTo = ModelIdentity.of(later.run.fingerprint.engine, fingerprint: later.run.fingerprint)
        flips = BaselineComparison(baseline: earlier, current: later).entries
            .filter { $0.change == .regression || $0.change == .fixed }
            .map { Flip(id: $0.id, change: $0.change, before: $0.before, after: $0.after, cause: $0.cause) }
    }

    /// How many flips have `cause`.
    public func count(_ cause: DriftCause) -> Int { flips.filter { $0.cause == cause }.count }

    /// The report as text: the models, the counts per cause, then each cause's flips.
    public var text: String {
        var lines = ["Drift from run \(from) to run \(to):"]
        lines.append(modelFrom == modelTo ? "  model: \(modelFrom) (unchanged)"
            : "  model: \(modelFrom) → \(modelTo)")
        var counts = DriftCause.allCases.map { "\(count($0)) \($0.rawValue)" }
        let unknown = flips.filter { $0.cause == nil }.count
        if unknown > 0 { counts.append("\(unknown) unknown") }
        lines.append("  \(flips.count) case\(flips.count == 1 ? "" : "s") flipped: \(counts.joined(separator: ", "))")
        for cause in DriftCause.allCases.map(Optional.some) + [nil] {
            let some = flips.filter { $0.cause == cause }
            guard !some.isEmpty else { continue }
            lines.append("\(cause?.phrase ?? "unknown (a run without definition hashes)") (\(some.count)):")
            let width = some.map(\.change.rawValue.count).max() ?? 0
            for flip in some {
                let name = flip.change.rawValue
                lines.append("  \(name)\(String(repeating: " ", count: width - name.count))  \(flip.id)  "
                    + "(\(flip.before?.rawValue ?? "–") → \(flip.after?.rawValue ?? "–"))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
