/// `--shard auto`: the worker's shard read from the variables its scheduler sets, so one command serves
/// every worker. The schedulers and their variables are declared once, in `ShardEnvironment.schedulers`.
public struct ShardEnvironment: Sendable {
    /// One scheduler: the variables it sets and how they give a shard (nil when none of them is set).
    struct Scheduler: Sendable {
        /// Its name in messages (`Kubernetes Indexed Job`).
        let name: String
        /// The variables it reads, the index's first.
        let variables: [String]
        /// The shard its variables give; throws `ShardError` for a partial or inconsistent set.
        let read: @Sendable ([String: String]) throws -> Shard
    }

    /// The shard found.
    public let shard: Shard
    /// Where it came from, for the run's notes: `Slurm job array (SLURM_ARRAY_TASK_ID=3, …)`.
    public let source: String

    /// `FMEVAL_SHARD` (a CI matrix), Kubernetes' `JOB_COMPLETION_INDEX` with `FMEVAL_SHARD_COUNT` (the
    /// Job's `completions`, which Kubernetes does not expose: the manifest `fmeval init --ci kubernetes`
    /// writes sets it), and a Slurm job array's `SLURM_ARRAY_TASK_*`, in that order of precedence.
    static let schedulers: [Scheduler] = [
        Scheduler(name: "CI matrix", variables: ["FMEVAL_SHARD"]) { environment in
            try Shard(parsing: environment["FMEVAL_SHARD"] ?? "")
        },
        Scheduler(name: "Kubernetes Indexed Job",
                  variables: ["JOB_COMPLETION_INDEX", "FMEVAL_SHARD_COUNT"]) { env in
            let index = try number(env, "JOB_COMPLETION_INDEX", minimum: 0)
            let count = try number(env, "FMEVAL_SHARD_COUNT", minimum: 1,
                                   missing: "set it to the Job's completions (Kubernetes does not pass that count)")
            guard index < count else {
                throw ShardError("--shard auto: JOB_COMPLETION_INDEX=\(index) is not below "
                    + "FMEVAL_SHARD_COUNT=\(count); set FMEVAL_SHARD_COUNT to the Job's completions")
            }
            return try Shard(index: index + 1, count: count)
        },
        Scheduler(name: "Slurm job array",
                  variables: ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                              "SLURM_ARRAY_TASK_STEP"]) { env in
            let id = try number(env, "SLURM_ARRAY_TASK_ID", minimum: 0)
            let count = try number(env, "SLURM_ARRAY_TASK_COUNT", minimum: 1)
            let first = try number(env, "SLURM_ARRAY_TASK_MIN", minimum: 0)
            let step = env["SLURM_ARRAY_TASK_STEP"] == nil ? 1 : try number(env, "SLURM_ARRAY_TASK_STEP", minimum: 1)
            let offset = id - first
            guard offset >= 0, offset % step == 0, offset / step < count else {
                throw ShardError("--shard auto: SLURM_ARRAY_TASK_ID=\(id) is not one of the \(count) tasks from "
                    + "SLURM_ARRAY_TASK_MIN=\(first) in steps of \(step); give the array as a range such as "
                    + "--array=0-\(count - 1)")
            }
            return try Shard(index: offset / step + 1, count: count)
        },
    ]

    /// Every variable `--shard auto` reads, for messages and docs.
    public static var variables: [String] { schedulers.flatMap(\.variables) }

    /// The shard `environment` gives: the first scheduler with any of its variables set. Throws
    /// `ShardError` naming the variables when none is set, or when that scheduler's set is partial or
    /// inconsistent.
    public init(_ environment: [String: String]) throws {
        guard let scheduler = Self.schedulers.first(where: { $0.variables.contains { environment[$0] != nil } }) else {
            throw ShardError("--shard auto: no scheduler variables are set; set FMEVAL_SHARD=I/N (a CI matrix), "
                + "JOB_COMPLETION_INDEX with FMEVAL_SHARD_COUNT (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID "
                + "with SLURM_ARRAY_TASK_COUNT (a Slurm job array), or give --shard I/N")
        }
        shard = try scheduler.read(environment)
        let values = scheduler.variables.compactMap { name in environment[name].map { "\(name)=\($0)" } }
        source = "\(scheduler.name) (\(values.joined(separator: ", ")))"
    }

    /// The variable `name` as a whole number of at least `minimum`.
    private static func number(_ environment: [String: String], _ name: String, minimum: Int,
                               missing: String? = nil) throws -> Int {
        guard let text = environment[name] else {
            throw ShardError("--shard auto: \(name) is not set" + (missing.map { "; " + $0 } ?? ""))
        }
        guard let value = Int(text), value >= minimum else {
            throw ShardError("--shard auto: \(name)=\(text) is not a whole number of at least \(minimum)")
        }
        return value
    }
}
