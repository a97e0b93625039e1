/// The shell steps every scheduler template shares (`fmeval init --ci kubernetes|slurm`), written once: one
/// shard of the run, balanced by the run history and told its index by the scheduler's own variables
/// (`--shard auto`), and the merge that records the merged run in that history for the next balance.
/// Paths hang off `$FMEVAL_WORK`, the folder every worker shares.
enum SchedulerShardScripts {
    /// The run history every shard balances by and the merge records into.
    static let history = "\"$FMEVAL_WORK/history.sqlite\""

    /// One shard: its results in `$FMEVAL_WORK/shards/shard-INDEX.json`, where `index` is the shell
    /// expression of the scheduler's index variable. A gate that fails (exit 1) is the merge's to report,
    /// so the shard ends 0 and the scheduler does not retry it; invalid input (2) and infrastructure (3)
    /// end it with that status.
    static func shard(index: String, suites: String) -> String {
        """
        set -eu
        export FMEVAL_MODEL_DIR="$FMEVAL_WORK/models"
        mkdir -p "$FMEVAL_WORK/shards"
        status=0
        "$FMEVAL_WORK/bin/fmeval" run \(suites) --shard auto --shard-balance history \\
          --history \(history) --no-history --fresh \\
          --json "$FMEVAL_WORK/shards/shard-\(index).json" || status=$?
        [ "$status" -le 1 ] || exit "$status"
        """
    }

    /// The merge of every shard's results into `$FMEVAL_WORK/reports`, recorded in the history; it exits
    /// as the merged run does (1 when a gate failed).
    static let merge = """
        set -eu
        mkdir -p "$FMEVAL_WORK/reports"
        "$FMEVAL_WORK/bin/fmeval" merge "$FMEVAL_WORK"/shards/shard-*.json --history \(history) \\
          --json "$FMEVAL_WORK/reports/results.json" --junit "$FMEVAL_WORK/reports/junit.xml" \\
          --html "$FMEVAL_WORK/reports/report.html"
        """

    /// Clears the last run's shard results, then fetches the model into the shared folder once (its
    /// SHA-256 is checked again when it is there) and validates the suites.
    static func prepare(suites: String) -> String {
        """
        rm -rf "$FMEVAL_WORK/shards"
        mkdir -p "$FMEVAL_WORK/shards"
        FMEVAL_MODEL_DIR="$FMEVAL_WORK/models" "$FMEVAL_WORK/bin/fmeval" model fetch
        "$FMEVAL_WORK/bin/fmeval" validate \(suites)
        """
    }
}
