import Foundation
import FMCore
import FMHistory
import FMResults
import FMRun

/// `--shard I/N|auto` and `--shard-balance hash|history` of `run`: which part of the cases this worker runs,
/// and how the cases are split (docs/ci.md, "Shards").
struct ShardFlags {
    /// `--shard`.
    static let shard = Flag("--shard", .value("I/N|auto"), help: """
        run shard I of N (combine the shards' results with 'fmeval merge'); auto reads
        I and N from the scheduler: FMEVAL_SHARD=I/N (a CI matrix), JOB_COMPLETION_INDEX
        with FMEVAL_SHARD_COUNT (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID with
        SLURM_ARRAY_TASK_COUNT (a Slurm job array)
        """)
    /// `--shard-balance`.
    static let balance = Flag("--shard-balance", .value("hash|history"), help: """
        how the shards split the cases: hash (default: a stable partition by
        suite/variant/case id) or history (longest measured case first onto the least
        loaded shard, by each case's median duration in the run history's last full
        runs; a case without one falls back to its hash); every shard must read the same
        history, and 'fmeval merge' refuses shards whose splits differ
        """)
    /// The two flags.
    static let table = FlagTable(shard, balance)

    /// Sets `request`'s shard, its source and balance from `arguments`, reading the scheduler's variables
    /// from `environment` and a history balance from `history`.
    static func apply(_ arguments: Arguments, to request: inout RunRequest, history: HistoryFlags,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let balanceName = arguments.value(balance)
        guard let text = arguments.value(shard) else {
            if balanceName != nil {
                throw Fault.invalidInput("run: --shard-balance needs --shard I/N or --shard auto (it splits shards)")
            }
            return
        }
        do {
            if text == "auto" {
                let found = try ShardEnvironment(environment)
                request.shard = found.shard
                request.shardSource = found.source
            } else {
                request.shard = try Shard(parsing: text)
            }
        } catch let error as ShardError {
            throw Fault.invalidInput("run: \(error.message)")
        }
        switch balanceName {
        case nil, "hash"?: request.shardBalance = .hash
        case "history"?:
            request.shardBalance = try HistoryStore(path: history.file(resultsPath: request.resultsPath), create: false)
                .shardBalance()
        case let other?:
            throw Fault.invalidInput("run: --shard-balance takes hash or history, not '\(other)'")
        }
    }
}
