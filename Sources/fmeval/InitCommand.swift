import Foundation
import FMCore

/// `fmeval init [DIR] [--force] [--ci github|kubernetes|slurm] [--shards N]`: write commented starter suites,
/// a dataset and the CI files to run them.
struct InitCommand: Command {
    static let path = ["init"]
    static let summary = "Write a starter suite, its dataset and CI files (GitHub Actions, Kubernetes or Slurm)"
    static let force = Flag("--force", help: "overwrite the files if they exist")
    static let ci = Flag("--ci", .value("github|kubernetes|slurm"), help: """
        the CI files to write: github (default: a GitHub Actions workflow),
        kubernetes (ci/kubernetes: an Indexed Job of shards and a merge Job on a
        shared volume) or slurm (ci/slurm: a job array of shards and a merge job); the
        Kubernetes and Slurm shards find their index with --shard auto and balance
        by the run history
        """)
    static let shards = Flag("--shards", .value("N"), help: """
        split the suites into N shards (2 to 256; default 4 for kubernetes and slurm):
        for github a build job, N eval jobs (fmeval run --shard I/N) and a report job
        that merges them
        """)
    static let usage = CommandUsage("init", "[DIR]", flags: FlagTable(force, ci, shards))
    static let help = """
    \(usage.line)

    Writes into DIR (default: the current folder):
      suites/example.yaml            a suite commented key by key; it runs on the embedded model and passes
      suites/tools.yaml              a tool-calling suite: toolCallingMode required and the loop's expected end
      datasets/example.jsonl         more cases for it, one JSON object per line
      .github/workflows/fmeval.yml   (--ci github) a GitHub Actions workflow for GitHub-hosted Linux runners,
                                     in the official Swift container: builds fmeval from the repository
                                     variables FMEVAL_REPOSITORY (and FMEVAL_REF), caches fmeval's build and
                                     the model, runs the suites and uploads the JUnit XML and HTML report
      ci/kubernetes/                 (--ci kubernetes) prepare.yaml (a shared volume and a Job that builds
                                     fmeval and fetches the model into it once), shards.yaml (an Indexed Job),
                                     merge.yaml (a Job) and run.sh (applies them in order)
      ci/slurm/                      (--ci slurm) shards.sbatch (a job array), merge.sbatch and submit.sh
                                     (fetches the model once, submits the array and the merge after it)
    docs/ci.md explains each file.
    Existing files are never overwritten unless --force is given; nothing is written if any exists.

    OPTIONS:
    \(usage.flags.list(column: 14))

    Exit codes: 0 written · 2 a file exists (without --force), DIR is not a folder, --ci is unknown or
    --shards is out of range · 3 a file cannot be written.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "init", flags: usage.flags)
        let force = args.flag(Self.force)
        let shardCount = try args.int(Self.shards, minimum: InitCITarget.shardCounts.lowerBound,
                                      maximum: InitCITarget.shardCounts.upperBound)
        let ciName = args.value(Self.ci)
        guard let ci = InitCITarget(name: ciName, shards: shardCount) else {
            throw Fault.invalidInput("init: --ci takes \(InitCITarget.names.joined(separator: ", ")), "
                + "not '\(ciName ?? "")'; nothing was written")
        }
        let positionals = args.positionals
        guard positionals.count <= 1 else {
            throw Fault.invalidInput("init: takes one folder, got \(positionals.count): \(positionals.joined(separator: " "))")
        }
        let folder = positionals.first ?? "."
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Fault.invalidInput("init: '\(folder)' is a file; give a folder (it is created when missing)")
        }
        let targets = InitTemplates.files(ci: ci).map { (shown: display(folder, $0.path), url: URL(fileURLWithPath: FilePaths.join(folder, $0.path)), text: $0.text) }
        let existing = targets.filter { FileManager.default.fileExists(atPath: $0.url.path) }
        if !existing.isEmpty && !force {
            throw Fault.invalidInput("init: \(existing.map(\.shown).joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); nothing was written. Move \(existing.count == 1 ? "it" : "them") away or pass --force to overwrite")
        }
        for target in targets {
            do {
                try FileManager.default.createDirectory(atPath: FilePaths.parent(of: target.url.path), withIntermediateDirectories: true)
                try Data(target.text.utf8).write(to: target.url)
                if target.url.path.hasSuffix(".sh") {
                    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target.url.path)
                }
            } catch {
                throw Fault.infrastructure("init: cannot write \(target.shown): \(error.localizedDescription)")
            }
            print("wrote \(target.shown)")
        }
        let suites = display(folder, "suites")
        print("""

        Next: check the suite, then run it (the first run fetches the model, about 100 MB):
          fmeval validate \(suites)
          fmeval run \(suites) --html reports/report.html
        \(ci.nextStep)
        """)
        return ExitStatus.ok
    }

    /// `path` inside `folder` as the user would type it (no `./` prefix for the current folder).
    private static func display(_ folder: String, _ path: String) -> String {
        folder == "." ? path : (folder.hasSuffix("/") ? folder + path : folder + "/" + path)
    }
}
