import Foundation
import Testing

// The Kubernetes and Slurm files `fmeval init --ci` writes, read as the schedulers read them (the manifests
// by PyYAML, the scripts by bash), and their shard and merge steps run as written, here, with the variables
// each scheduler sets and the real binary standing in for the one the prepare step builds. Neither a
// cluster nor Slurm is here: what they do between the steps (start the pods or tasks, wait) is not run.

/// True when python3 can import PyYAML, or in CI where it must (.ci/run installs it).
private let pyyamlAvailable: Bool = {
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" { return true }
    return (try? runFMEval([], executable: "/usr/bin/env", prefix: ["python3", "-c", "import yaml"]))?.status == 0
}()

/// Every document of a YAML file, as JSON values.
private func yamlDocuments(_ file: URL) throws -> [[String: Any]] {
    let script = "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))"
    let parsed = try runFMEval([], executable: "/usr/bin/env", prefix: ["python3", "-c", script, file.path])
    #expect(parsed.status == 0, "PyYAML cannot parse \(file.lastPathComponent): \(parsed.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
}

/// A shared folder as the prepare step leaves it: fmeval's binary, the model, and a history holding one
/// full run of `suites` (what the shards balance by).
private func preparedWork(suites: URL) throws -> URL {
    let work = try temporaryFolder()
    let bin = work.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("fmeval"),
                                               withDestinationURL: fmevalBinary())
    let model = try runFMEval(["model", "fetch"])
    let models = URL(fileURLWithPath: model.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        .deletingLastPathComponent()
    try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("models"), withDestinationURL: models)
    let full = try runFMEval(["run", suites.path, "--json", work.appendingPathComponent("full.json").path,
                              "--history", work.appendingPathComponent("history.sqlite").path],
                         environment: ["CI": "true"])
    #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
    return work
}

/// Runs `script` with bash as the scheduler would, in `directory`, with `environment` added.
private func runScript(_ script: String, in directory: URL, environment: [String: String]) throws -> CLIResult {
    try runFMEval([], environment: environment.merging(["CI": "true"]) { $1 }, directory: directory,
                  executable: "/bin/bash", prefix: ["-c", script])
}

/// The shards' results as written: every case once, each shard's split recorded with the same digest and
/// balanced by the history; the merge holds every case of the full run.
private func expectShardsMerge(work: URL, count: Int, scheduler: String, merged: CLIResult) throws {
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    var digests: Set<String> = []
    for index in 0..<count {
        let file = work.appendingPathComponent("shards/shard-\(index).json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let run = document?["run"] as? [String: Any]
        let split = run?["shardAssignment"] as? [String: Any]
        #expect(run?["shard"] as? String == "\(index + 1)/\(count)")
        #expect(split?["balance"] as? String == "history" && (split?["source"] as? String ?? "").hasPrefix(scheduler),
                "\(split ?? [:])")
        digests.insert(split?["digest"] as? String ?? "")
    }
    #expect(digests.count == 1, "every shard computed the same split")
    let full = try Results(path: work.appendingPathComponent("full.json").path)
    let mergedResults = try Results(path: work.appendingPathComponent("reports/results.json").path)
    #expect(mergedResults.statuses == full.statuses && mergedResults.cases.count == full.cases.count)
    #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("reports/report.html").path))
}

@Test(.enabled(if: pyyamlAvailable))
func initKubernetesWritesAnIndexedJobWhoseShardsAndMergeRunAsWritten() throws {
    let project = try temporaryFolder()
    let written = try runFMEval(["init", "--ci", "kubernetes", "--shards", "3"], directory: project)
    #expect(written.status == 0 && written.stdout.contains("wrote ci/kubernetes/shards.yaml"), "\(written.stderr)")
    let folder = project.appendingPathComponent("ci/kubernetes")
    let prepare = try yamlDocuments(folder.appendingPathComponent("prepare.yaml"))
    #expect(prepare.map { $0["kind"] as? String } == ["PersistentVolumeClaim", "ConfigMap", "Job"])
    #expect(((prepare[0]["spec"] as? [String: Any])?["accessModes"] as? [String]) == ["ReadWriteMany"])
    let settings = prepare[1]["data"] as? [String: String] ?? [:]
    #expect(Set(settings.keys) == ["FMEVAL_REPOSITORY", "FMEVAL_REF", "PROJECT_REPOSITORY", "PROJECT_REF"])
    let shardJob = try #require(try yamlDocuments(folder.appendingPathComponent("shards.yaml")).first)
    let spec = try #require(shardJob["spec"] as? [String: Any])
    #expect(spec["completionMode"] as? String == "Indexed" && spec["completions"] as? Int == 3)
    #expect(spec["parallelism"] as? Int == 3)
    let mergeJob = try #require(try yamlDocuments(folder.appendingPathComponent("merge.yaml")).first)
    var scripts: [String: (script: String, environment: [String: String])] = [:]
    for (name, job) in [("prepare", prepare[2]), ("shard", shardJob), ("merge", mergeJob)] {
        let pod = ((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any] ?? [:]
        #expect(pod["restartPolicy"] as? String == "Never")
        let claim = ((pod["volumes"] as? [[String: Any]])?.first?["persistentVolumeClaim"] as? [String: Any])
        #expect(claim?["claimName"] as? String == "fmeval-work", "\(name) mounts the shared volume")
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        #expect((container["volumeMounts"] as? [[String: Any]])?.first?["mountPath"] as? String == "/work")
        let env = (container["env"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
            $0[$1["name"] as? String ?? ""] = $1["value"] as? String
        }
        #expect(env["FMEVAL_WORK"] == "/work")
        scripts[name] = (try #require((container["args"] as? [String])?.first), env)
    }
    #expect(scripts["shard"]?.environment["FMEVAL_SHARD_COUNT"] == "3", "the count repeats completions")
    let check = try runFMEval([], executable: "/bin/bash", prefix: ["-n", "-c", scripts["prepare"]?.script ?? ""])
    #expect(check.status == 0, "the prepare script is valid bash: \(check.stderr)")

    // The pods' steps, run here: /work is a temporary folder holding what the prepare Job puts there.
    let work = try preparedWork(suites: project.appendingPathComponent("suites"))
    try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("project"), withDestinationURL: project)
    for index in 0..<3 {
        let environment = (scripts["shard"]?.environment ?? [:])
            .merging(["FMEVAL_WORK": work.path, "JOB_COMPLETION_INDEX": "\(index)"]) { $1 }
        let ran = try runScript(scripts["shard"]?.script ?? "", in: work, environment: environment)
        #expect(ran.status == 0, "shard \(index): \(ran.stdout)\(ran.stderr)")
        #expect(ran.stdout.contains(
            "from Kubernetes Indexed Job (JOB_COMPLETION_INDEX=\(index), FMEVAL_SHARD_COUNT=3)"))
    }
    let merged = try runScript(scripts["merge"]?.script ?? "", in: work, environment: ["FMEVAL_WORK": work.path])
    try expectShardsMerge(work: work, count: 3, scheduler: "Kubernetes Indexed Job", merged: merged)
    let run = try String(contentsOf: folder.appendingPathComponent("run.sh"), encoding: .utf8)
    #expect(run.contains("kubectl wait --for=condition=complete job/fmeval-prepare"))
}

@Test func initSlurmWritesAJobArrayWhoseTasksAndMergeRunAsWritten() throws {
    let project = try temporaryFolder()
    let written = try runFMEval(["init", "--ci", "slurm"], directory: project)
    #expect(written.status == 0, "\(written.stderr)")
    let folder = project.appendingPathComponent("ci/slurm")
    let array = try String(contentsOf: folder.appendingPathComponent("shards.sbatch"), encoding: .utf8)
    #expect(array.contains("#SBATCH --array=0-3\n"), "four tasks by default")
    for name in ["shards.sbatch", "merge.sbatch", "submit.sh"] {
        let check = try runFMEval([], executable: "/bin/bash", prefix: ["-n", folder.appendingPathComponent(name).path])
        #expect(check.status == 0, "\(name) is valid bash: \(check.stderr)")
    }
    let work = try preparedWork(suites: project.appendingPathComponent("suites"))
    for task in 0..<4 {
        let environment = ["FMEVAL_WORK": work.path, "SLURM_SUBMIT_DIR": project.path,
                           "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                           "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1"]
        let ran = try runFMEval([], environment: environment.merging(["CI": "true"]) { $1 }, directory: work,
                                executable: "/bin/bash", prefix: [folder.appendingPathComponent("shards.sbatch").path])
        #expect(ran.status == 0, "task \(task): \(ran.stdout)\(ran.stderr)")
    }
    let merged = try runFMEval([], environment: ["FMEVAL_WORK": work.path, "CI": "true"], directory: work,
                               executable: "/bin/bash", prefix: [folder.appendingPathComponent("merge.sbatch").path])
    try expectShardsMerge(work: work, count: 4, scheduler: "Slurm job array", merged: merged)
    let unset = try runFMEval([], executable: "/bin/bash",
                              prefix: [folder.appendingPathComponent("shards.sbatch").path])
    #expect(unset.status != 0 && unset.stderr.contains("export FMEVAL_WORK"), "\(unset.stderr)")
}

@Test func initRefusesAnUnknownSchedulerAndWritesNothing() throws {
    let folder = try temporaryFolder()
    let refused = try runFMEval(["init", "--ci", "nomad"], directory: folder)
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("init: --ci takes github, kubernetes, slurm, not 'nomad'; nothing was written"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
}

/// `--shard auto` without its variables, or a partial set, stops the run before anything runs (exit 2).
@Test func shardAutoWithoutItsVariablesIsInvalidInput() throws {
    let clean = ProcessInfo.processInfo.environment.keys.filter { $0.hasPrefix("SLURM_") || $0.hasPrefix("JOB_") }
    #expect(clean.isEmpty, "the test's own environment sets scheduler variables: \(clean)")
    let none = try runFMEval(["run", fixture("session.yaml"), "--shard", "auto"])
    #expect(none.status == 2 && none.stderr.contains("--shard auto: no scheduler variables are set"), "\(none.stderr)")
    let partial = try runFMEval(["run", fixture("session.yaml"), "--shard", "auto"],
                                environment: ["JOB_COMPLETION_INDEX": "0"])
    #expect(partial.status == 2 && partial.stderr.contains("FMEVAL_SHARD_COUNT is not set"), "\(partial.stderr)")
    let unsharded = try runFMEval(["run", fixture("session.yaml"), "--shard-balance", "history"])
    #expect(unsharded.status == 2 && unsharded.stderr.contains("--shard-balance needs --shard"), "\(unsharded.stderr)")
    let unknown = try runFMEval(["run", fixture("session.yaml"), "--shard", "1/2", "--shard-balance", "time"])
    #expect(unknown.status == 2 && unknown.stderr.contains("--shard-balance takes hash or history, not 'time'"))
}
