/// Where the CI files `fmeval init` writes run (`--ci`), and into how many shards they split the suites
/// (`--shards`): a GitHub Actions workflow, Kubernetes manifests or Slurm scripts (docs/ci.md).
enum InitCITarget: Equatable {
    /// A GitHub Actions workflow: one job, or a matrix of `shards` jobs and a merge.
    case github(shards: Int?)
    /// An Indexed Job of `shards` pods, balanced by the run history, and a merge Job.
    case kubernetes(shards: Int)
    /// A job array of `shards` tasks, balanced by the run history, and a merge job.
    case slurm(shards: Int)

    /// The names `--ci` takes, the default first.
    static let names = ["github", "kubernetes", "slurm"]
    /// The shard counts `--shards` accepts: a workflow's matrix holds at most 256 jobs.
    static let shardCounts = 2...256
    /// The shards of a scheduler that always shards when `--shards` is not given.
    static let defaultShards = 4

    /// The target `--ci NAME` (nil: github) with `--shards` (nil: not given) asks for, or nil for an
    /// unknown name.
    init?(name: String?, shards: Int?) {
        switch name ?? Self.names[0] {
        case "github": self = .github(shards: shards)
        case "kubernetes": self = .kubernetes(shards: shards ?? Self.defaultShards)
        case "slurm": self = .slurm(shards: shards ?? Self.defaultShards)
        default: return nil
        }
    }

    /// The files it writes, relative to the project.
    var files: [(path: String, text: String)] {
        switch self {
        case .github(let shards):
            let shape = shards.map { GitHubWorkflowShape.sharded(count: $0) } ?? .single
            return [(".github/workflows/fmeval.yml", GitHubWorkflowTemplate.text(for: shape))]
        case .kubernetes(let shards): return KubernetesTemplate.files(shards: shards)
        case .slurm(let shards): return SlurmTemplate.files(shards: shards)
        }
    }

    /// What to do after `init`, one line.
    var nextStep: String {
        switch self {
        case .github:
            return "The workflow needs the repository variable FMEVAL_REPOSITORY (fmeval's source, owner/name): "
                + "see docs/ci.md."
        case .kubernetes:
            return "Set the fmeval-settings ConfigMap in ci/kubernetes/prepare.yaml, then run ci/kubernetes/run.sh: "
                + "see docs/ci.md."
        case .slurm:
            return "Submit with FMEVAL_WORK=/shared/folder ci/slurm/submit.sh from this folder: see docs/ci.md."
        }
    }
}
