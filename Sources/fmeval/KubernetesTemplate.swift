/// The Kubernetes manifests `fmeval init --ci kubernetes --shards N` writes (docs/ci.md, "Kubernetes"):
/// a shared volume, a Job that builds fmeval and fetches the model into it once, an Indexed Job of N
/// shards balanced by the run history, and a Job that merges them; `run.sh` applies them in order.
enum KubernetesTemplate {
    /// The folder the files go in.
    static let folder = "ci/kubernetes"
    /// Where the shared volume is mounted in every pod (`$FMEVAL_WORK`).
    static let work = "/work"
    /// The volume claim every pod mounts.
    static let claim = "fmeval-work"

    /// The files, relative to the project.
    static func files(shards: Int) -> [(path: String, text: String)] {
        [
            ("\(folder)/prepare.yaml", prepare),
            ("\(folder)/shards.yaml", shardJob(count: shards)),
            ("\(folder)/merge.yaml", mergeJob),
            ("\(folder)/run.sh", runScript),
        ]
    }

    private static let header = """
        # Written by `fmeval init --ci kubernetes`; fmeval's docs/ci.md ("Kubernetes") explains each part.
        # Every pod mounts the volume claim \(claim) at \(work) ($FMEVAL_WORK): fmeval's binary (bin/),
        # the model (models/, fetched once), this project (project/), the run history (history.sqlite),
        # the shards' results (shards/) and the merged reports (reports/).
        """

    /// The volume, the settings and the Job that builds fmeval and fetches the model.
    static let prepare = """
        \(header)
        # The claim needs ReadWriteMany when the shards' pods land on different nodes.
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata:
          name: \(claim)
        spec:
          accessModes: [ReadWriteMany]
          resources:
            requests:
              storage: 10Gi
        ---
        # Where fmeval and this project come from (edit before the first run): owner/name on GitHub, and
        # optionally the branch, tag or commit (a tag or a commit keeps every run on the same fmeval).
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: fmeval-settings
        data:
          FMEVAL_REPOSITORY: ""
          FMEVAL_REF: ""
          PROJECT_REPOSITORY: ""
          PROJECT_REF: ""
        ---
        # Builds fmeval (once per FMEVAL_REF), checks out this project, fetches and verifies the model once
        # and validates the suites; clears the last run's shard results.
        \(job("fmeval-prepare", container: "prepare", spec: ["backoffLimit: 0"], script: prepareScript,
               settings: "fmeval-settings"))
        """

    private static let prepareScript = """
        set -eu
        : "${FMEVAL_REPOSITORY:?set FMEVAL_REPOSITORY in the fmeval-settings ConfigMap}"
        : "${PROJECT_REPOSITORY:?set PROJECT_REPOSITORY in the fmeval-settings ConfigMap}"
        apt-get update
        apt-get install -y --no-install-recommends libsqlite3-dev python3-pip git ca-certificates
        clone() { rm -rf "$2"; git clone --depth 1 ${3:+--branch "$3"} "https://github.com/$1" "$2"; }
        clone "$FMEVAL_REPOSITORY" "$FMEVAL_WORK/src/fmeval" "$FMEVAL_REF"
        built="$(git -C "$FMEVAL_WORK/src/fmeval" rev-parse HEAD)"
        if [ "$(cat "$FMEVAL_WORK/bin/.commit" 2>/dev/null)" != "$built" ]; then
          swift build -c release --package-path "$FMEVAL_WORK/src/fmeval" --product fmeval
          mkdir -p "$FMEVAL_WORK/bin"
          cp "$FMEVAL_WORK/src/fmeval/.build/release/fmeval" "$FMEVAL_WORK/bin/fmeval"
          echo "$built" > "$FMEVAL_WORK/bin/.commit"
        fi
        clone "$PROJECT_REPOSITORY" "$FMEVAL_WORK/project" "$PROJECT_REF"
        \(SchedulerShardScripts.prepare(suites: suites))
        """

    /// The suites, in the project's checkout.
    private static let suites = "\"$FMEVAL_WORK/project/suites\""

    /// The Indexed Job: `count` pods, each told its index by Kubernetes and the count by the manifest.
    static func shardJob(count: Int) -> String {
        """
        \(header)
        # \(count) shards at once: Kubernetes gives each pod JOB_COMPLETION_INDEX (0…\(count - 1)); Kubernetes does
        # not pass the count, so FMEVAL_SHARD_COUNT repeats `completions` (keep the two equal). A failed pod
        # is retried with its index; a shard whose gate fails still succeeds (the merge reports it).
        \(job("fmeval-shards", container: "shard",
               spec: ["completionMode: Indexed", "completions: \(count)", "parallelism: \(count)",
                      "backoffLimitPerIndex: 1"],
               script: SchedulerShardScripts.shard(index: "$JOB_COMPLETION_INDEX", suites: suites),
               environment: [("FMEVAL_SHARD_COUNT", "\"\(count)\"")]))
        """
    }

    /// The Job that merges the shards' results and records the merged run in the history.
    static let mergeJob = """
        \(header)
        # After every shard: merges their results into reports/ and records the merged run in the history,
        # which the next run's shards balance by. It fails as the merged run does (exit 1: a gate failed).
        \(job("fmeval-merge", container: "merge", spec: ["backoffLimit: 0"], script: SchedulerShardScripts.merge))
        """

    /// One Job in the Swift image: `spec` lines under `spec:`, one container running `script` with bash,
    /// the shared volume at `work`, `FMEVAL_WORK` and `environment` set, and the ConfigMap `settings`'s
    /// keys too when given.
    private static func job(_ name: String, container: String, spec: [String], script: String,
                            settings: String? = nil, environment: [(String, String)] = []) -> String {
        let variables = [("FMEVAL_WORK", work)] + environment
        let env = (settings.map { ["envFrom:", "  - configMapRef: { name: \($0) }"] } ?? [])
            + ["env:"] + variables.map { "  - { name: \($0.0), value: \($0.1) }" }
        return (["apiVersion: batch/v1", "kind: Job", "metadata:", "  name: \(name)", "spec:"]
            + spec.map { "  " + $0 }
            + ["  template:", "    spec:", "      restartPolicy: Never", "      containers:",
               "        - name: \(container)", "          image: \(GitHubWorkflowTemplate.swiftImage)"]
            + env.map { "          " + $0 }
            + ["          volumeMounts:", "            - { name: work, mountPath: \(work) }",
               "          command: [/bin/bash, -c]", "          args:", "            - |",
               indented(script, by: 14),
               "      volumes:", "        - name: work",
               "          persistentVolumeClaim: { claimName: \(claim) }", ""])
            .joined(separator: "\n")
    }

    /// Applies the three manifests in order, waiting for each Job, and deletes the Jobs afterwards (the
    /// volume stays, with the binary, the model and the history).
    static let runScript = """
        #!/usr/bin/env bash
        # Written by `fmeval init --ci kubernetes`: runs the suites on the cluster kubectl points at.
        set -euo pipefail
        cd "$(dirname "$0")"
        kubectl delete job fmeval-prepare fmeval-shards fmeval-merge --ignore-not-found
        kubectl apply -f prepare.yaml
        kubectl wait --for=condition=complete job/fmeval-prepare --timeout=60m
        kubectl apply -f shards.yaml
        kubectl wait --for=condition=complete job/fmeval-shards --timeout=120m || true
        kubectl apply -f merge.yaml
        kubectl wait --for=condition=complete job/fmeval-merge --timeout=15m || status=1
        kubectl logs job/fmeval-merge
        exit "${status:-0}"

        """

    /// `text` with every line but empty ones indented by `by` spaces (a YAML block scalar's body).
    static func indented(_ text: String, by count: Int) -> String {
        let pad = String(repeating: " ", count: count)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }
}
