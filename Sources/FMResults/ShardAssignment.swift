import FMCore

/// How a run's cases are split into shards (`--shard-balance`).
public enum ShardBalance: Sendable, Equatable {
    /// By the stable hash of each case's id (`Shard.number`): no input but the id.
    case hash
    /// Longest measured case first onto the least loaded shard, by each case's duration in milliseconds
    /// (keyed by case id); a case without one falls back to its hash shard. `basis` says what the
    /// durations were measured over (`the median of the last 5 full runs up to #12`).
    case durations([String: Double], basis: String)

    /// `hash` or `history`, as `--shard-balance` and the results name it.
    public var name: String {
        switch self {
        case .hash: return "hash"
        case .durations: return "history"
        }
    }
}

/// Every case's shard in one split of a run. Each worker computes the whole assignment from the same
/// inputs (the selected cases, the shard count, the balance), so the workers agree without talking, and
/// its digest shows that they did: `fmeval merge` refuses history-balanced shards whose digests differ.
public struct ShardAssignment: Sendable {
    /// The number of shards.
    public let count: Int
    /// Each case's shard (1...count), by case id.
    public let shards: [String: Int]
    /// Each shard's estimated milliseconds (its measured cases; unmeasured ones at the median): what
    /// balancing by history evens out. Empty for the hash split.
    public let estimatedMs: [Double]
    /// The record of the split for the results (`RunInfo.shardAssignment`).
    public let info: ShardAssignmentInfo

    /// Splits `cases` (suite, variant, case id each) into `count` shards by `balance`.
    public init(cases: [(suite: String, variant: String?, caseID: String)], count: Int, balance: ShardBalance,
                source: String? = nil) {
        let ids = cases.map { CaseResult.stableID(suite: $0.suite, caseID: $0.caseID, variant: $0.variant) }
        var byID: [String: Int] = [:]
        var loads = [Double](repeating: 0, count: count)
        for (id, item) in zip(ids, cases) {
            byID[id] = Shard.number(suite: item.suite, variant: item.variant, caseID: item.caseID, count: count)
        }
        if case .durations(let durations, _) = balance {
            let measured = ids.compactMap { id in durations[id].map { (id: id, ms: max(0, $0)) } }
            let sorted = measured.map(\.ms).sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            for id in ids where durations[id] == nil { loads[byID[id]! - 1] += median }
            for item in measured.sorted(by: { $0.ms != $1.ms ? $0.ms > $1.ms : $0.id < $1.id }) {
                let lightest = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
                byID[item.id] = lightest + 1
                loads[lightest] += item.ms
            }
        }
        self.count = count
        shards = byID
        estimatedMs = balance == .hash ? [] : loads
        let lines = byID.keys.sorted().map { "\($0)\t\(byID[$0]!)\n" }.joined()
        var basis: String?
        if case .durations(_, let text) = balance { basis = text }
        info = ShardAssignmentInfo(balance: balance.name, basis: basis, source: source,
                                   digest: SHA256.hex(of: Array(lines.utf8)))
    }

    /// The shard (1...count) of the case with stable id `id`; its hash shard when it was not split here.
    public func shard(of suite: String, variant: String?, caseID: String) -> Int {
        shards[CaseResult.stableID(suite: suite, caseID: caseID, variant: variant)]
            ?? Shard.number(suite: suite, variant: variant, caseID: caseID, count: count)
    }
}

/// How a shard's cases were chosen, as its results record it: the balance, what it was measured over,
/// where the shard number came from, and the digest of the whole assignment.
public struct ShardAssignmentInfo: Codable, Hashable, Sendable {
    /// `hash` or `history`.
    public var balance: String
    /// For `history`: what the durations were measured over.
    public var basis: String?
    /// For `--shard auto`: the scheduler and variables the shard was read from.
    public var source: String?
    /// SHA-256 of every case id with its shard (sorted lines `ID<TAB>SHARD`): equal across the shards of
    /// one split.
    public var digest: String

    /// Creates the record.
    public init(balance: String, basis: String? = nil, source: String? = nil, digest: String) {
        self.balance = balance
        self.basis = basis
        self.source = source
        self.digest = digest
    }
}
