import FMEmbedded

/// Which GitHub Actions workflow `fmeval init` writes.
enum GitHubWorkflowShape: Equatable {
    /// One job: build fmeval, run every suite, upload the reports.
    case single
    /// A build job, `count` shard jobs (`fmeval run --shard I/count`) and a report job that merges them.
    case sharded(count: Int)
}

/// The GitHub Actions workflow `fmeval init` writes: GitHub-hosted Linux runners, Swift from the official
/// container image, fmeval built from the repository variables FMEVAL_REPOSITORY and FMEVAL_REF, fmeval's
/// binary and the model cached, the JUnit XML and HTML report uploaded (docs/ci.md).
enum GitHubWorkflowTemplate {
    /// The Swift release of the container image.
    static let swiftVersion = "6.3.3"
    /// The container every job runs in: the official Swift image, Ubuntu 24.04 (noble).
    static let swiftImage = "swift:\(swiftVersion)-noble"
    /// The model's cache key: its SHA-256, so a new model is a new entry.
    static let modelKey = "fmeval-model-\(ModelSpec.smolLM2.sha256)"
    /// Where fmeval keeps the model (its default cache directory; the container's HOME).
    static let modelPath = "~/.cache/fmeval/models"


    /// The workflow's text.
    static func text(for target: GitHubWorkflowShape) -> String {
        switch target {
        case .single:
            return header(single) + job("eval", timeout: 60, explained: true, steps: [
                Steps.guardVariables, Steps.checkout, Steps.install, Steps.checkoutFmeval,
            ] + Steps.build + Steps.model + [Steps.validate, Steps.run, Steps.cassetteNote, Steps.uploadReports])
        case .sharded(let count):
            let shards = (1...count).map(String.init).joined(separator: ", ")
            return header(sharded(count))
                + job("build", timeout: 60, settings: [buildOutputs], explained: true, steps: [
                    Steps.guardVariables, Steps.checkout, Steps.install, Steps.checkoutFmeval,
                ] + Steps.build + Steps.model + [Steps.validate])
                + "\n" + job("eval", timeout: 60, settings: ["    needs: build", matrix(shards)], steps: [
                    Steps.checkout, Steps.restoreBuild, Steps.restoreModel, Steps.runShard(count), Steps.uploadShard,
                ])
                + "\n" + job("report", timeout: 15, settings: [reportCondition], steps: [
                    Steps.restoreBuild, Steps.downloadShards, Steps.merge, Steps.uploadReports,
                ])
        }
    }

    /// One job: `name:`, its `settings` (lines indented by four spaces), the machine (`explained` in
    /// the first job), and its steps.
    private static func job(_ name: String, timeout: Int, settings: [String] = [], explained: Bool = false,
                            steps: [String]) -> String {
        let lines = ["  \(name):"] + settings + (explained ? [machineNote] : [])
            + ["    runs-on: ubuntu-latest", "    container: \(swiftImage)", "    timeout-minutes: \(timeout)"]
            + ["    steps:"]
        return lines.joined(separator: "\n") + "\n" + steps.joined(separator: "\n\n") + "\n"
    }

    private static let single = """
    # Runs this repository's fmeval suites (suites/) on every push and pull request, on GitHub-hosted Linux
    # runners, and uploads the JUnit XML and the HTML report. Written by `fmeval init`; fmeval's docs/ci.md
    # explains each step.
    """

    private static func sharded(_ count: Int) -> String {
        """
        # Runs this repository's fmeval suites (suites/) on every push and pull request, on GitHub-hosted Linux
        # runners, split into \(count) shards that run at once, and uploads the merged JUnit XML and HTML report.
        # Jobs: build (fmeval and the model, into the cache; validates the suites), eval (one per shard:
        # `fmeval run --shard I/\(count)`), report (`fmeval merge` of the shards' results). Written by
        # `fmeval init --shards \(count)`; fmeval's docs/ci.md explains each step.
        """
    }

    private static func header(_ description: String) -> String {
        description + "\n" + """
        #
        # Set once, under Settings > Secrets and variables > Actions > Variables (repository variables):
        #   FMEVAL_REPOSITORY  required: fmeval's source on GitHub as owner/name (your fork or copy of fmeval)
        #   FMEVAL_REF         optional: the branch, tag or commit of it to build (default: its default branch);
        #                      a tag or a commit keeps every run on the same fmeval
        # Without FMEVAL_REPOSITORY the first step fails and says what to set. A private FMEVAL_REPOSITORY
        # also needs a token that can read it: `token: ${{ secrets.YOUR_TOKEN }}` in "Check out fmeval".
        name: fmeval

        on:
          push:
          pull_request:

        permissions:
          contents: read

        env:
          FMEVAL_REPOSITORY: ${{ vars.FMEVAL_REPOSITORY }}
          FMEVAL_REF: ${{ vars.FMEVAL_REF }}

        jobs:

        """
    }

    /// Why `runs-on` and `container` are what they are (the same in every job).
    private static let machineNote = """
        # Every job runs in the official Swift image (hub.docker.com/_/swift): Swift comes from it, not from
        # the runner, so any x64 Linux runner will do, and ubuntu-latest moving from Ubuntu 24.04 to 26.04
        # (October-November 2026) changes nothing here.
    """

    /// The build job hands its cache key to the others.
    private static let buildOutputs = """
        outputs:
          fmeval-key: ${{ steps.fmeval-build.outputs.cache-primary-key }}
    """

    private static func matrix(_ shards: String) -> String {
        """
            strategy:
              # Every shard runs to its end, so the report holds every case even when one shard fails.
              fail-fast: false
              matrix:
                shard: [\(shards)]
        """
    }

    private static let reportCondition = """
        needs: [build, eval]
        # After every shard, also when one failed; not when the build failed or the run was cancelled.
        if: ${{ !cancelled() && needs.build.result == 'success' }}
    """
}
