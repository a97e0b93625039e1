import Foundation
import Testing

// The workflow `fmeval init` writes, read as GitHub reads it (YAML, parsed by PyYAML), and the steps that
// run fmeval executed as written, with the real binary standing in for the one the workflow builds.

/// True when python3 can import PyYAML, or in CI where it must (.ci/run installs it).
private let pyyamlAvailable: Bool = {
    if ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" { return true }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "import yaml"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

/// The actions the workflow may use: current majors only (no setup-swift, no combined actions/cache).
private let currentActions: Set = ["actions/checkout@v7", "actions/cache/restore@v6", "actions/cache/save@v6",
                                   "actions/upload-artifact@v7", "actions/download-artifact@v8"]

/// A workflow file parsed by PyYAML into JSON values (YAML 1.1 reads the key `on` as true: put it back).
private struct Workflow {
    let document: [String: Any]
    let text: String

    init(_ file: URL) throws {
        text = try String(contentsOf: file, encoding: .utf8)
        let script = """
        import json, sys, yaml
        document = yaml.safe_load(open(sys.argv[1]))
        if True in document: document["on"] = document.pop(True)
        print(json.dumps(document))
        """
        let parsed = try runFMEval([], executable: "/usr/bin/env", prefix: ["python3", "-c", script, file.path])
        #expect(parsed.status == 0, "PyYAML cannot parse the workflow: \(parsed.stderr)")
        document = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
    }

    var jobs: [String: [String: Any]] { document["jobs"] as? [String: [String: Any]] ?? [:] }

    func steps(_ job: String) -> [[String: Any]] { jobs[job]?["steps"] as? [[String: Any]] ?? [] }

    func step(_ job: String, _ name: String) throws -> [String: Any] {
        try #require(steps(job).first { $0["name"] as? String == name }, "job \(job) has no step '\(name)'")
    }

    func index(_ job: String, _ name: String) -> Int? { steps(job).firstIndex { $0["name"] as? String == name } }
}

private func with(_ step: [String: Any]) -> [String: Any] { step["with"] as? [String: Any] ?? [:] }

/// Runs a step's `run:` script as the runner does (bash -e) in `directory`, with `.fmeval/bin/fmeval`
/// being the binary under test; `matrix` fills in `${{ matrix.shard }}`.
private func runStep(_ step: [String: Any], in directory: URL, matrix shard: Int? = nil,
                     environment: [String: String] = ["CI": "true"]) throws -> CLIResult {
    var script = try #require(step["run"] as? String, "the step runs no script")
    if let shard { script = script.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)") }
    #expect(!script.contains("${{"), "an expression the test cannot fill in: \(script)")
    let bin = directory.appendingPathComponent(".fmeval/bin")
    if !FileManager.default.fileExists(atPath: bin.appendingPathComponent("fmeval").path) {
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("fmeval"),
                                                   withDestinationURL: fmevalBinary())
    }
    return try runFMEval([], environment: environment, directory: directory,
                         executable: "/bin/bash", prefix: ["-e", "-c", script])
}

/// Checks what every job shares: the Swift container, current actions only, uploads under !cancelled().
private func expectCommonShape(_ workflow: Workflow) throws {
    let env = workflow.document["env"] as? [String: String] ?? [:]
    #expect(env["FMEVAL_REPOSITORY"] == "${{ vars.FMEVAL_REPOSITORY }}", "\(env)")
    #expect(env["FMEVAL_REF"] == "${{ vars.FMEVAL_REF }}", "\(env)")
    let triggers = workflow.document["on"] as? [String: Any] ?? [:]
    #expect(Set(triggers.keys) == ["push", "pull_request"], "\(triggers)")
    for needed in ["Settings > Secrets and variables > Actions > Variables", "FMEVAL_REPOSITORY  required",
                   "FMEVAL_REF         optional"] {
        #expect(workflow.text.contains(needed), "the comments do not explain the variables: \(needed)")
    }
    #expect(!workflow.text.contains("your-org") && !workflow.text.contains("\t"))
    for (name, job) in workflow.jobs {
        let image = job["container"] as? String ?? ""
        #expect(image.wholeMatch(of: /swift:6\.3\.\d+-noble/) != nil, "job \(name) runs in '\(image)'")
        #expect(job["runs-on"] as? String == "ubuntu-latest", "job \(name)")
        for step in workflow.steps(name) {
            if let uses = step["uses"] as? String {
                #expect(currentActions.contains(uses), "job \(name) uses \(uses)")
            }
            if (step["uses"] as? String)?.hasPrefix("actions/upload-artifact@") == true {
                #expect(step["if"] as? String == "${{ !cancelled() }}", "job \(name): \(step)")
            }
        }
    }
}

/// Checks the guard step: exit 2 with an `::error::` naming the variable when unset, 0 when set.
private func expectGuard(_ workflow: Workflow, job: String, in folder: URL) throws {
    #expect(workflow.index(job, "Check the repository variables") == 0, "the guard is not the first step")
    let step = try workflow.step(job, "Check the repository variables")
    let unset = try runStep(step, in: folder, environment: ["FMEVAL_REPOSITORY": ""])
    #expect(unset.status == 2, "\(unset.stdout)\(unset.stderr)")
    let annotation = unset.stdout.split(separator: "\n").first { $0.hasPrefix("::error") } ?? ""
    #expect(annotation.contains("::Set the repository variable FMEVAL_REPOSITORY to fmeval's source"),
            "one-line error annotation: \(unset.stdout)")
    let set = try runStep(step, in: folder, environment: ["FMEVAL_REPOSITORY": "me/fmeval", "FMEVAL_REF": "v1"])
    #expect(set.status == 0 && set.stdout.contains("fmeval from me/fmeval at v1"), "\(set.stdout)\(set.stderr)")
}

/// Checks the build job's steps: packages, fmeval's source from the variables, both caches.
private func expectBuildSteps(_ workflow: Workflow, job: String, modelHash: String) throws {
    let install = try workflow.step(job, "Install the packages fmeval needs")
    let script = install["run"] as? String ?? ""
    #expect(script.contains("apt-get update") && script.contains("apt-get install -y"), "\(script)")
    #expect(script.contains("libsqlite3-dev") && script.contains("python3-pip"), "\(script)")
    let source = try workflow.step(job, "Check out fmeval")
    #expect(source["id"] as? String == "fmeval-source")
    #expect(with(source)["repository"] as? String == "${{ env.FMEVAL_REPOSITORY }}")
    #expect(with(source)["ref"] as? String == "${{ env.FMEVAL_REF }}")
    #expect(with(source)["path"] as? String == ".fmeval/src")
    let restore = try workflow.step(job, "Restore fmeval's build")
    let key = with(restore)["key"] as? String ?? ""
    #expect(restore["uses"] as? String == "actions/cache/restore@v6")
    #expect(with(restore)["path"] as? String == ".fmeval/bin")
    #expect(key.contains("${{ steps.fmeval-source.outputs.commit }}") && key.contains("swift-6.3."), "\(key)")
    let build = try workflow.step(job, "Build fmeval")
    #expect(build["if"] as? String == "steps.fmeval-build.outputs.cache-hit != 'true'")
    let buildScript = build["run"] as? String ?? ""
    #expect(buildScript.contains("swift build -c release --package-path .fmeval/src"), "\(buildScript)")
    #expect(buildScript.contains(".fmeval/bin/"), "\(buildScript)")
    let save = try workflow.step(job, "Save fmeval's build")
    #expect(save["uses"] as? String == "actions/cache/save@v6" && with(save)["path"] as? String == ".fmeval/bin")
    #expect(with(save)["key"] as? String == "${{ steps.fmeval-build.outputs.cache-primary-key }}")
    let model = try workflow.step(job, "Restore the model")
    #expect(with(model)["path"] as? String == "~/.cache/fmeval/models")
    #expect(with(model)["key"] as? String == "fmeval-model-\(modelHash)", "keyed by the model fmeval loads")
    #expect(try workflow.step(job, "Fetch the model")["run"] as? String == ".fmeval/bin/fmeval model fetch")
    let order = ["Install the packages fmeval needs", "Check out fmeval", "Restore fmeval's build", "Build fmeval",
                 "Save fmeval's build", "Restore the model", "Fetch the model", "Save the model", "Validate the suites"]
    let indices = order.compactMap { workflow.index(job, $0) }
    #expect(indices.count == order.count && indices == indices.sorted(), "steps out of order: \(indices)")
}

@Test(.enabled(if: pyyamlAvailable))
func initWritesAWorkflowThatBuildsFmevalInTheSwiftContainerAndRunsAsWritten() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try runFMEval(["init", "project"], directory: folder)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout.contains("FMEVAL_REPOSITORY") && written.stdout.contains("docs/ci.md"), "\(written.stdout)")
    let project = folder.appendingPathComponent("project")
    let workflow = try Workflow(project.appendingPathComponent(".github/workflows/fmeval.yml"))
    #expect(Array(workflow.jobs.keys) == ["eval"])
    try expectCommonShape(workflow)
    try expectGuard(workflow, job: "eval", in: project)
    #expect(workflow.steps("eval")[1]["uses"] as? String == "actions/checkout@v7", "the repository is checked out")

    let run = try workflow.step("eval", "Run the suites")
    #expect(run["run"] as? String
            == ".fmeval/bin/fmeval run suites --junit reports/junit.xml --html reports/report.html")
    let validate = try runStep(try workflow.step("eval", "Validate the suites"), in: project)
    #expect(validate.status == 0 && validate.stdout.contains("2 suites, 5 cases, 0 errors"), "\(validate.stdout)")
    let ran = try runStep(run, in: project)
    #expect(ran.status == 0, "\(ran.stdout)\(ran.stderr)")
    let hash = try Results(path: project.appendingPathComponent("reports/results.json").path).document
    let engine = ((hash["run"] as? [String: Any])?["fingerprint"] as? [String: Any])?["engine"] as? [String: Any]
    try expectBuildSteps(workflow, job: "eval", modelHash: try #require(engine?["modelHash"] as? String))

    let upload = try workflow.step("eval", "Upload the reports")
    let uploaded = (with(upload)["path"] as? String ?? "").split(separator: "\n").map(String.init)
    #expect(uploaded == ["reports/junit.xml", "reports/report.html", "reports/results.json"], "\(uploaded)")
    for file in uploaded {
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(file).path), "\(file)")
    }
    #expect(workflow.index("eval", "Upload the reports") == workflow.steps("eval").count - 1)
}

@Test(.enabled(if: pyyamlAvailable))
func initShardsWritesABuildJobAShardMatrixAndAMergeThatRunAsWritten() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try runFMEval(["init", "--shards", "4"], directory: folder)
    #expect(written.status == 0, "\(written.stderr)")
    let validate = try runFMEval(["validate", "suites"], directory: folder)
    #expect(validate.status == 0 && validate.stdout.contains("2 suites, 5 cases, 0 errors"), "\(validate.stdout)")
    let workflow = try Workflow(folder.appendingPathComponent(".github/workflows/fmeval.yml"))
    #expect(Set(workflow.jobs.keys) == ["build", "eval", "report"])
    try expectCommonShape(workflow)
    try expectGuard(workflow, job: "build", in: folder)
    let model = with(try workflow.step("build", "Restore the model"))["key"] as? String ?? ""
    try expectBuildSteps(workflow, job: "build", modelHash: String(model.dropFirst("fmeval-model-".count)))
    let outputs = workflow.jobs["build"]?["outputs"] as? [String: String]
    #expect(outputs == ["fmeval-key": "${{ steps.fmeval-build.outputs.cache-primary-key }}"])

    let eval = try #require(workflow.jobs["eval"])
    #expect(eval["needs"] as? String == "build")
    let strategy = eval["strategy"] as? [String: Any] ?? [:]
    #expect(strategy["fail-fast"] as? Bool == false)
    #expect((strategy["matrix"] as? [String: Any])?["shard"] as? [Int] == [1, 2, 3, 4], "\(strategy)")
    for (job, name) in [("eval", "Restore fmeval's build"), ("eval", "Restore the model"),
                        ("report", "Restore fmeval's build")] {
        let restore = with(try workflow.step(job, name))
        #expect(restore["fail-on-cache-miss"] as? Bool == true, "\(job): \(name)")
    }
    #expect(with(try workflow.step("eval", "Restore fmeval's build"))["key"] as? String
            == "${{ needs.build.outputs.fmeval-key }}")
    #expect(with(try workflow.step("eval", "Restore the model"))["key"] as? String == model)

    let report = try #require(workflow.jobs["report"])
    #expect(report["needs"] as? [String] == ["build", "eval"])
    #expect(report["if"] as? String == "${{ !cancelled() && needs.build.result == 'success' }}")
    let download = with(try workflow.step("report", "Download the shards' results"))
    #expect(download["pattern"] as? String == "fmeval-shard-*" && download["path"] as? String == "shards")
    #expect(download["merge-multiple"] as? Bool == true)
    let shardUpload = with(try workflow.step("eval", "Upload the shard's results"))
    #expect(shardUpload["name"] as? String == "fmeval-shard-${{ matrix.shard }}")

    // The shard jobs and the merge, as written: every shard's results land in shards/, the merge reports.
    let runShard = try workflow.step("eval", "Run shard ${{ matrix.shard }} of 4")
    for shard in 1...4 {
        let ran = try runStep(runShard, in: folder, matrix: shard)
        #expect(ran.status == 0, "shard \(shard): \(ran.stdout)\(ran.stderr)")
        let results = shardUpload["path"] as? String ?? ""
        let file = results.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path), "\(file)")
    }
    // The report job has no checkout: only the downloaded shards, in shards/.
    let reportJob = folder.appendingPathComponent("report-job")
    try FileManager.default.createDirectory(at: reportJob, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: folder.appendingPathComponent("shards"),
                                     to: reportJob.appendingPathComponent("shards"))
    let merged = try runStep(try workflow.step("report", "Merge the shards"), in: reportJob)
    #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
    #expect(merged.stdout.contains("5 cases, 5 passed"), "\(merged.stdout)")
    let junit = try String(contentsOf: reportJob.appendingPathComponent("reports/junit.xml"), encoding: .utf8)
    #expect(junit.contains(#"tests="4""#), "\(junit)")
    let uploaded = (with(try workflow.step("report", "Upload the reports"))["path"] as? String ?? "")
    for file in uploaded.split(separator: "\n") {
        #expect(FileManager.default.fileExists(atPath: reportJob.appendingPathComponent(String(file)).path), "\(file)")
    }
}

@Test func initShardsRefusesACountOutsideTwoTo256AndWritesNothing() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for bad in ["1", "0", "257", "-4", "four", ""] {
        let refused = try runFMEval(["init", "--shards", bad], directory: folder)
        #expect(refused.status == 2, "--shards \(bad): \(refused.stderr)")
        #expect(refused.stderr.contains("--shards expects an integer from 2 to 256, got '\(bad)'"), "\(refused.stderr)")
    }
    let missing = try runFMEval(["init", "--shards"], directory: folder)
    #expect(missing.status == 2 && missing.stderr.contains("--shards"), "\(missing.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was written")
    let widest = try runFMEval(["init", "--shards", "256"], directory: folder)
    #expect(widest.status == 0, "\(widest.stderr)")
    let text = try String(contentsOf: folder.appendingPathComponent(".github/workflows/fmeval.yml"), encoding: .utf8)
    #expect(text.contains("shard: [1, 2, 3,") && text.contains(", 255, 256]"))
    #expect(text.contains("--shard ${{ matrix.shard }}/256"))
}
