import FMCore
import Testing
@testable import FMReport
@testable import FMResults

/// `--shard auto`: each scheduler's variables give the same 1-based shard, and a partial or inconsistent
/// set is refused naming its variables.
@Test(arguments: [
    (["FMEVAL_SHARD": "3/4"], "3/4", "CI matrix (FMEVAL_SHARD=3/4)"),
    (["JOB_COMPLETION_INDEX": "2", "FMEVAL_SHARD_COUNT": "4"], "3/4",
     "Kubernetes Indexed Job (JOB_COMPLETION_INDEX=2, FMEVAL_SHARD_COUNT=4)"),
    (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"], "3/4",
     "Slurm job array (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_MIN=0)"),
    (["SLURM_ARRAY_TASK_ID": "15", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "5",
      "SLURM_ARRAY_TASK_STEP": "5"], "3/4",
     "Slurm job array (SLURM_ARRAY_TASK_ID=15, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_MIN=5, "
        + "SLURM_ARRAY_TASK_STEP=5)"),
    (["FMEVAL_SHARD": "1/2", "JOB_COMPLETION_INDEX": "1", "FMEVAL_SHARD_COUNT": "2"], "1/2",
     "CI matrix (FMEVAL_SHARD=1/2)"),
])
func eachSchedulersVariablesGiveTheShard(environment: [String: String], shard: String, source: String) throws {
    let found = try ShardEnvironment(environment)
    #expect(found.shard.description == shard && found.source == source)
}

@Test(arguments: [
    ([:], "--shard auto: no scheduler variables are set; set FMEVAL_SHARD=I/N (a CI matrix), JOB_COMPLETION_INDEX "
        + "with FMEVAL_SHARD_COUNT (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT "
        + "(a Slurm job array), or give --shard I/N"),
    (["JOB_COMPLETION_INDEX": "0"], "--shard auto: FMEVAL_SHARD_COUNT is not set; set it to the Job's completions "
        + "(Kubernetes does not pass that count)"),
    (["JOB_COMPLETION_INDEX": "4", "FMEVAL_SHARD_COUNT": "4"], "--shard auto: JOB_COMPLETION_INDEX=4 is not below "
        + "FMEVAL_SHARD_COUNT=4; set FMEVAL_SHARD_COUNT to the Job's completions"),
    (["FMEVAL_SHARD_COUNT": "4"], "--shard auto: JOB_COMPLETION_INDEX is not set"),
    (["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"],
     "--shard auto: SLURM_ARRAY_TASK_ID=7 is not one of the 4 tasks from SLURM_ARRAY_TASK_MIN=0 in steps of 1; "
        + "give the array as a range such as --array=0-3"),
    (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"],
     "--shard auto: SLURM_ARRAY_TASK_ID=x is not a whole number of at least 0"),
    (["FMEVAL_SHARD": "5/4"], "--shard: the shard number must be between 1 and 4, got 5"),
])
func aPartialOrInconsistentSetIsRefused(environment: [String: String], message: String) {
    #expect(throws: ShardError(message)) { try ShardEnvironment(environment) }
}

private let cases = (0..<40).map { (suite: "s", variant: nil as String?, caseID: "c\($0)") }

/// Longest first onto the least loaded shard: the measured cases spread evenly, every worker computes
/// the same split (and digest), unmeasured cases keep their hash shard.
@Test func historyBalanceEvensTheShardsAndEveryWorkerAgrees() throws {
    // One slow case in four, the rest fast: the hash split piles slow cases unevenly.
    let durations = Dictionary(uniqueKeysWithValues: cases.prefix(32).enumerated().map { index, item in
        ("s/\(item.caseID)", index % 4 == 0 ? 10_000.0 : 500.0)
    })
    let balanced = ShardAssignment(cases: cases, count: 4, balance: .durations(durations, basis: "test"))
    let again = ShardAssignment(cases: cases.reversed(), count: 4, balance: .durations(durations, basis: "test"))
    #expect(balanced.shards == again.shards && balanced.info.digest == again.info.digest)
    #expect(balanced.info.balance == "history" && balanced.info.basis == "test")
    let spread = (balanced.estimatedMs.max() ?? 0) / (balanced.estimatedMs.min() ?? 1)
    #expect(spread < 1.05, "\(balanced.estimatedMs)")
    var hashLoads = [Double](repeating: 0, count: 4)
    for item in cases {
        hashLoads[Shard.number(suite: "s", variant: nil, caseID: item.caseID, count: 4) - 1]
            += durations["s/\(item.caseID)"] ?? 500
    }
    #expect((hashLoads.max() ?? 0) / (hashLoads.min() ?? 1) > 1.3, "the hash split is uneven here: \(hashLoads)")
    for item in cases.suffix(8) {
        #expect(balanced.shard(of: "s", variant: nil, caseID: item.caseID)
                == Shard.number(suite: "s", variant: nil, caseID: item.caseID, count: 4), "unmeasured: its hash shard")
    }
    let hash = ShardAssignment(cases: cases, count: 4, balance: .hash)
    #expect(hash.info.balance == "hash" && hash.estimatedMs.isEmpty && hash.info.digest != balanced.info.digest)
    #expect(cases.allSatisfy { hash.shard(of: "s", variant: nil, caseID: $0.caseID)
                               == Shard.number(suite: "s", variant: nil, caseID: $0.caseID, count: 4) })
}

/// Shards balanced by different histories would run some cases twice and others never: merge refuses them.
@Test func mergeRefusesHistoryShardsThatSplitDifferently() throws {
    func shard(_ index: Int, durations: [String: Double]) -> RunResult {
        let assignment = ShardAssignment(cases: cases, count: 2, balance: .durations(durations, basis: "runs"))
        var run = RunResult(run: sampleInfo(), cases: cases.filter {
            assignment.shard(of: "s", variant: nil, caseID: $0.caseID) == index
        }.map { sampleCase("s", $0.caseID, [.passed]) })
        run.run.shard = "\(index)/2"
        run.run.shardAssignment = assignment.info
        return run
    }
    let one = Dictionary(uniqueKeysWithValues: cases.map { ("s/\($0.caseID)", 100.0) })
    var other = one
    other["s/c3"] = 90_000
    let merged = try MergeResults.merge([("a.json", shard(1, durations: one)), ("b.json", shard(2, durations: one))])
    #expect(merged.result.cases.count == 40 && merged.result.run.shardAssignment == nil)
    let refused = #expect(throws: Fault.self) {
        try MergeResults.merge([("a.json", shard(1, durations: one)), ("b.json", shard(2, durations: other))])
    }
    #expect(refused?.message.hasPrefix("merge: a.json (history, runs, digest ") == true, "\(refused?.message ?? "")")
    #expect(refused?.message.contains("split the cases differently, so cases would run twice or not at all") == true)
}
