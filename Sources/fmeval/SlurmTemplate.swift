/// The Slurm scripts `fmeval init --ci slurm --shards N` writes (docs/ci.md, "Slurm"): a job array of N
/// shards balanced by the run history, a merge job that runs after every task, and `submit.sh`, which
/// fetches the model once into the shared folder and submits the two.
enum SlurmTemplate {
    /// The folder the files go in.
    static let folder = "ci/slurm"

    /// The files, relative to the project.
    static func files(shards: Int) -> [(path: String, text: String)] {
        [
            ("\(folder)/shards.sbatch", shardArray(count: shards)),
            ("\(folder)/merge.sbatch", merge),
            ("\(folder)/submit.sh", submit),
        ]
    }

    /// The project's suites: the checkout `submit.sh` was run from (Slurm's `SLURM_SUBMIT_DIR`).
    private static let suites = "\"$SLURM_SUBMIT_DIR/suites\""

    private static let header = """
        # Written by `fmeval init --ci slurm`; submit with ci/slurm/submit.sh from the project's folder on the
        # shared filesystem (fmeval's docs/ci.md, "Slurm"). $FMEVAL_WORK, a shared folder, holds fmeval's binary
        # (bin/fmeval), the model (models/), the run history (history.sqlite), the shards' results (shards/)
        # and the merged reports (reports/).
        """

    /// The job array: task ids 0…count-1, each one shard (`--shard auto` reads `SLURM_ARRAY_TASK_*`).
    static func shardArray(count: Int) -> String {
        """
        #!/usr/bin/env bash
        #SBATCH --job-name=fmeval-shards
        #SBATCH --array=0-\(count - 1)
        #SBATCH --cpus-per-task=2
        #SBATCH --mem=4G
        #SBATCH --time=01:00:00
        #SBATCH --output=fmeval-shard-%a.out
        \(header)
        # One task per shard; a shard whose gate fails still ends 0 (the merge reports it).
        : "${FMEVAL_WORK:?export FMEVAL_WORK (a folder on the shared filesystem) before submitting}"
        \(SchedulerShardScripts.shard(index: "$SLURM_ARRAY_TASK_ID", suites: suites))

        """
    }

    /// The merge job, submitted to run after every task of the array.
    static let merge = """
        #!/usr/bin/env bash
        #SBATCH --job-name=fmeval-merge
        #SBATCH --cpus-per-task=1
        #SBATCH --mem=2G
        #SBATCH --time=00:15:00
        #SBATCH --output=fmeval-merge.out
        \(header)
        # Merges every shard's results into $FMEVAL_WORK/reports and records the merged run in the history,
        # which the next run's shards balance by; it exits as the merged run does (1: a gate failed).
        : "${FMEVAL_WORK:?export FMEVAL_WORK (a folder on the shared filesystem) before submitting}"
        \(SchedulerShardScripts.merge)

        """

    /// Puts fmeval's binary in place, fetches the model once, validates the suites, then submits the
    /// array and the merge (`afterany`: it runs when every task has ended, whatever their exit).
    static let submit = """
        #!/usr/bin/env bash
        \(header)
        # Usage: FMEVAL_WORK=/shared/fmeval FMEVAL=/path/to/fmeval ci/slurm/submit.sh  (FMEVAL defaults to the
        # fmeval on PATH; build it with `swift build -c release` in fmeval's checkout).
        set -euo pipefail
        : "${FMEVAL_WORK:?export FMEVAL_WORK (a folder on the shared filesystem)}"
        here="$(cd "$(dirname "$0")" && pwd)"
        mkdir -p "$FMEVAL_WORK/bin"
        cp "$(command -v "${FMEVAL:-fmeval}")" "$FMEVAL_WORK/bin/fmeval"
        export SLURM_SUBMIT_DIR="$PWD"
        \(SchedulerShardScripts.prepare(suites: suites))
        shards="$(sbatch --parsable --export=ALL "$here/shards.sbatch")"
        sbatch --parsable --export=ALL --dependency="afterany:$shards" "$here/merge.sbatch"

        """
}
