import FMCore
import Foundation
import FMResults

extension HistoryStore {
    /// How many of a case's newest full runs its duration is the median of.
    public static let durationRuns = 5

    /// What `--shard-balance history` balances by: each case's median duration over its newest
    /// `durationRuns` full runs, and what that was measured over. Shard runs are left out, so shards
    /// recording into the history while others still start read the same durations: the snapshot is
    /// every full (unsharded or merged) run recorded before the first shard starts. An empty or missing
    /// history gives no durations (every case falls back to its hash shard).
    public func shardBalance() throws -> ShardBalance {
        guard FileManager.default.fileExists(atPath: location) else {
            return .durations([:], basis: "no history at \(location)")
        }
        let database = try open()
        return try guarded("read") {
            let rows = try database.query("""
                SELECT c.case_key, r.duration_us / 1000.0, runs.id FROM case_results r
                JOIN cases c ON c.id = r.case_ref JOIN runs ON runs.id = r.run
                WHERE runs.shard IS NULL AND r.status != 'error'
                ORDER BY c.case_key, runs.id DESC
                """) { ($0.text(0) ?? "", $0.double(1), $0.int(2)) }
            var samples: [String: [Double]] = [:]
            var newest = 0
            for (key, duration, run) in rows where samples[key, default: []].count < Self.durationRuns {
                samples[key, default: []].append(duration)
                newest = max(newest, run)
            }
            let durations = samples.mapValues { values in values.sorted()[values.count / 2] }
            let basis = newest == 0 ? "no full run in \(location)"
                : "median of each case's last \(Self.durationRuns) full runs up to #\(newest)"
            return .durations(durations, basis: basis)
        }
    }
}
