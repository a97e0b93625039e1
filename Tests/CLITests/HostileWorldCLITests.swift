import Foundation
import Testing
import TestSupport

/// A one-case scripted suite in `folder` (named `name.yaml`) that needs no model; `tool` adds a command
/// tool that the case calls first.
@discardableResult
private func quickSuite(in folder: URL, name: String = "quick", tool: String? = nil, extra: String = "") throws -> String {
    var text = "suite: \(name)\nengine: scripted\n\(extra)"
    if let tool {
        text += """
        tools:
          - name: slow
            description: Runs a command.
            arguments: { type: object, properties: { q: { type: string } } }
            output: { command: [sh, -c, "\(tool)"], timeoutSeconds: 100 }

        """
    }
    text += "cases:\n  - { id: first, prompt: one, script: [ { text: one } ], expect: { equals: one } }\n"
    if tool != nil {
        text += "  - { id: calls, prompt: two, script: [ { toolCalls: [ { name: slow, arguments: { q: x } } ] }, { text: two } ], "
            + "expect: { equals: two } }\n"
    }
    let path = folder.appendingPathComponent("\(name).yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// Starts `fmeval` with `arguments` in `folder` (output discarded) and returns the running process.
private func startFMEval(_ arguments: [String], in folder: URL) throws -> Process {
    let process = Process()
    process.executableURL = fmevalBinary()
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}


/// Every output flag with a one-character relative path: Foundation's `deletingLastPathComponent`
/// trapped (SIGILL, status 132) on each of these before the paths went through `FilePaths`.
@Test(arguments: [["--out", "o"], ["--json", "a"], ["--junit", "j/x.xml"], ["--html", "h"], ["--record", "c"],
                  ["--history", "a"], ["--json", "r/a", "--junit", "j"]])
func aOneCharacterOutputPathWorks(flags: [String]) throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try quickSuite(in: folder)
    let result = try runFMEval(["run", "quick.yaml"] + flags, environment: ["CI": "true"], directory: folder)
    #expect(result.status == 0, "\(flags): status \(result.status)\n\(result.stdout)\n\(result.stderr)")
    for (index, flag) in flags.enumerated() where flag.hasPrefix("--") && flag != "--out" {
        let path = folder.appendingPathComponent(flags[index + 1]).path
        #expect(FileManager.default.fileExists(atPath: path), "\(flag) \(flags[index + 1]) was not written")
    }
    if flags.first == "--out" {
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o/results.json").path))
    }
}

@Test func anEmptyOutputPathIsRefusedBeforeAnythingRuns() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try quickSuite(in: folder)
    for flags in [["--json", ""], ["--out", ""], ["--junit", ""], ["--html", ""], ["--record", ""]] {
        let result = try runFMEval(["run", "quick.yaml"] + flags, environment: ["CI": "true"], directory: folder)
        #expect(result.status == 2, "\(flags): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("empty"), "\(flags): \(result.stderr)")
        #expect(!result.stdout.contains("PASS"), "\(flags) ran a case: \(result.stdout)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["quick.yaml"], "nothing is written, no journal named 'l': \(left)")
}

/// `--model` naming a FIFO is refused at once (opening it used to wait for a writer for ever).
@Test func aModelThatIsAFifoIsRefusedWithoutHanging() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("model.gguf").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let process = Process()
    process.executableURL = fmevalBinary()
    process.arguments = ["respond", "--model", fifo, "hello"]
    let err = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = err
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    let hung = process.isRunning
    if hung { process.terminate() }
    process.waitUntilExit()
    #expect(!hung, "fmeval respond --model FIFO was still waiting after 60 s")
    let text = String(decoding: readToEnd(err.fileHandleForReading), as: UTF8.self)
    #expect(process.terminationStatus == 2 || process.terminationStatus == 3, "\(process.terminationStatus) \(text)")
    #expect(text.contains("not a regular file"), "\(text)")
}

/// A run killed with SIGKILL: its command tool dies with it (the parent-death signal), its journal is
/// kept, a second run on the folder is refused while the first runs (naming its pid), and a new run
/// refuses to replace the journal until it resumes or says --fresh.
@Test func aKilledRunsToolDiesAndItsJournalIsKeptUntilResumeOrFresh() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try quickSuite(in: folder, tool: "echo $$ > tool.pid; trap '' TERM; exec sleep 60")
    let first = try startFMEval(["run", "quick.yaml", "--out", "out", "--no-history"], in: folder)
    let tool = try #require(pid(writtenTo: folder.appendingPathComponent("tool.pid").path, within: 60), "the tool never started")

    let second = try runFMEval(["run", "quick.yaml", "--out", "out", "--no-history"], environment: ["CI": "true"], directory: folder)
    #expect(second.status == 2, "\(second.stderr)")
    #expect(second.stderr.contains("another fmeval run (pid \(first.processIdentifier)) is writing to out"), "\(second.stderr)")

    kill(first.processIdentifier, SIGKILL)
    first.waitUntilExit()
    let toolEnded = processEnds(tool, within: 3)
    #expect(toolEnded, "the command tool \(tool) outlived fmeval killed with SIGKILL")
    if !toolEnded { kill(tool, SIGKILL) }

    let journal = folder.appendingPathComponent("out/results.jsonl")
    let kept = try Data(contentsOf: journal)
    #expect(String(decoding: kept, as: UTF8.self).contains(#""caseID":"first""#))
    let again = try runFMEval(["run", "quick.yaml", "--out", "out", "--no-history"], environment: ["CI": "true"], directory: folder)
    #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
    #expect(again.stderr.contains("is the journal of an interrupted run (1 finished case)"), "\(again.stderr)")
    #expect(again.stderr.contains("--resume out/results.json") && again.stderr.contains("--fresh"), "\(again.stderr)")
    #expect(try Data(contentsOf: journal) == kept, "the refused run left the journal as it was")

    try quickSuite(in: folder, tool: "echo done")
    let fresh = try runFMEval(["run", "quick.yaml", "--out", "out", "--no-history", "--fresh"], environment: ["CI": "true"], directory: folder)
    #expect(fresh.status == 0, "\(fresh.stdout)\(fresh.stderr)")
    #expect(!FileManager.default.fileExists(atPath: journal.path), "a finished run deletes its journal")
    let both = try runFMEval(["run", "quick.yaml", "--fresh", "--resume", "out/results.json"], directory: folder)
    #expect(both.status == 2 && both.stderr.contains("--resume and --fresh exclude each other"), "\(both.stderr)")
}

/// A tool that leaves a setsid() daemon ignoring SIGTERM behind: the daemon ends with the tool.
@Test func aSetsidDaemonLeftByAToolEndsWithIt() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tool = #"setsid sh -c 'trap \"\" TERM; echo $$ > daemon.pid; exec sleep 60' & while [ ! -s daemon.pid ]; do sleep 0.05; done; echo ok"#
    try quickSuite(in: folder, tool: tool)
    let result = try runFMEval(["run", "quick.yaml", "--out", "out", "--no-history"], environment: ["CI": "true"], directory: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let daemon = try #require(pid(writtenTo: folder.appendingPathComponent("daemon.pid").path, within: 60))
    let ended = processEnds(daemon, within: 3)
    #expect(ended, "the tool's setsid daemon \(daemon) outlived the run")
    if !ended { kill(daemon, SIGKILL) }
}

/// fmeval killed with SIGKILL while its tool's setsid() daemon (ignoring SIGTERM) runs: the daemon,
/// outside the tool's process group and orphaned, still ends (the keeper is its subreaper).
@Test func aSetsidDaemonEndsWhenFMEvalIsKilled() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tool = #"setsid sh -c 'trap \"\" TERM; echo $$ > daemon.pid; exec sleep 60' & "#
        + #"while [ ! -s daemon.pid ]; do sleep 0.05; done; exec sleep 60"#
    try quickSuite(in: folder, tool: tool)
    let run = try startFMEval(["run", "quick.yaml", "--out", "out", "--no-history"], in: folder)
    let daemon = try #require(pid(writtenTo: folder.appendingPathComponent("daemon.pid").path, within: 60))
    kill(run.processIdentifier, SIGKILL)
    run.waitUntilExit()
    let ended = processEnds(daemon, within: 3)
    #expect(ended, "the tool's setsid daemon \(daemon) outlived fmeval killed with SIGKILL")
    if !ended { kill(daemon, SIGKILL) }
}

/// A journal write that fails mid-run (a file size limit: writes fail with EFBIG, a real fault) is one
/// clear line and exit 3, and the journal keeps whole lines for --resume.
@Test func aJournalThatCannotGrowIsOneLineAndExit3() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var text = "suite: big\nengine: scripted\ncases:\n"
    let long = String(repeating: "x", count: 600)
    for index in 0 ..< 20 { text += "  - { id: c\(index), prompt: p, script: [ { text: \(long) } ], expect: { equals: \(long) } }\n" }
    try Data(text.utf8).write(to: folder.appendingPathComponent("big.yaml"))
    let command = "trap '' XFSZ; ulimit -f 16; exec \"$0\" run big.yaml --out out --no-history"
    let result = try runFMEval([], environment: ["CI": "true"], directory: folder, executable: "/bin/sh",
                               prefix: ["-c", command, fmevalBinary().path])
    #expect(result.status == 3, "\(result.status) \(result.stdout) \(result.stderr)")
    let lines = result.stderr.split(separator: "\n").filter { $0.contains("journal") }
    #expect(lines.count == 1 && lines[0].contains("cannot write the results journal out/results.jsonl: File too large"),
            "\(result.stderr)")
    #expect(lines.first?.contains("--resume out/results.jsonl") == true, "\(result.stderr)")
    let journal = try String(contentsOfFile: folder.appendingPathComponent("out/results.jsonl").path, encoding: .utf8)
    #expect(journal.hasSuffix("\n") && journal.split(separator: "\n").allSatisfy { $0.hasSuffix("}") }, "whole lines only")
    #expect(journal.count <= 16 * 512)
}

/// A file tool output of /proc/self/environ (or a link to it) never puts fmeval's environment anywhere.
@Test func procEnvironAsAToolOutputLeaksNothing() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let canary = "canary-" + UUID().uuidString
    try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("env.txt").path, withDestinationPath: "/proc/self/environ")
    for output in ["/proc/self/environ", "env.txt"] {
        let suite = """
        suite: leak
        engine: scripted
        tools:
          - name: env
            description: Reads a file.
            arguments: { type: object, properties: { q: { type: string } } }
            output: { file: \(output) }
        cases:
          - { id: a, prompt: p, script: [ { toolCalls: [ { name: env, arguments: { q: x } } ] }, { text: t } ], expect: { equals: t } }
        """
        try Data(suite.utf8).write(to: folder.appendingPathComponent("leak.yaml"))
        let result = try runFMEval(["run", "leak.yaml", "--out", "out", "--junit", "out/j.xml", "--html", "out/r.html"],
                                   environment: ["CI": "true", "FMEVAL_CANARY": canary], directory: folder)
        #expect(result.status == 2, "\(output): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("a kernel file system"), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(canary))
        for file in (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []) {
            let text = (try? String(contentsOfFile: folder.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
            #expect(!text.contains(canary), "\(file) holds the canary")
        }
    }
}

/// Control characters from suites, results and transcripts never reach the terminal: every command's
/// output is checked for ESC, BEL, NUL, C1 and bidi controls.
@Test func controlCharactersFromInputsAreShownNotObeyed() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func clean(_ text: String, _ what: String) {
        let bad = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F ... 0x9F).contains($0.value)
            || (0x202A ... 0x202E).contains($0.value) || (0x2066 ... 0x2069).contains($0.value) }
        #expect(bad.isEmpty, "\(what) printed \(bad.map { String($0.value, radix: 16) })")
    }
    let suite = """
    suite: "hostile\\u001b[1A\\u001b[2K"
    engine: scripted
    variants:
      - { name: "a\\u001b[1A\\u001b[2K\\u009b", instructions: one }
      - { name: "b\\u202egnp\\u0007", instructions: two }
    cases:
      - { id: "c\\u001b]0;title\\u0007", prompt: p, script: [ { text: "x\\u001b[2J" } ], expect: { equals: "y\\u0000" } }
    """
    try Data(suite.utf8).write(to: folder.appendingPathComponent("hostile.yaml"))
    let run = try runFMEval(["run", "hostile.yaml", "--json", "r.json", "--no-history"], environment: ["CI": "true"], directory: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    clean(run.stdout + run.stderr, "run")
    let compare = try runFMEval(["compare", "r.json"], directory: folder)
    #expect(compare.stdout.contains("A/B"), "\(compare.stdout + compare.stderr)")
    clean(compare.stdout + compare.stderr, "compare")

    var results = try String(contentsOfFile: folder.appendingPathComponent("r.json").path, encoding: .utf8)
    results = results.replacingOccurrences(of: #""name":"scripted""#, with: #""name":"scr\u001b[1Aipted\u202e""#)
    try Data(results.utf8).write(to: folder.appendingPathComponent("r2.json"))
    let engines = try runFMEval(["compare", "r.json", "r2.json"], directory: folder)
    clean(engines.stdout + engines.stderr, "compare of two engines")

    let invalid = "suite: bad\nengine: scripted\n\"k\\u001b]0;t\\u0007\": 1\ntools:\n  - { name: \"t\\u001b[2K\", output: x }\n"
        + "cases:\n  - { id: \"d\\u009b\", prompt: p, expect: { toolCalls: [ { name: \"n\\u001b[1A\" } ] } }\n"
    try Data(invalid.utf8).write(to: folder.appendingPathComponent("bad\u{1B}[2K.yaml"))
    let validate = try runFMEval(["validate", "bad\u{1B}[2K.yaml"], directory: folder)
    #expect(validate.status == 2, "\(validate.stdout + validate.stderr)")
    clean(validate.stdout + validate.stderr, "validate")

    let reference = referenceDirectory.appendingPathComponent("apple-fm-sdk/test_transcript.json").path
    let transcript = try String(contentsOfFile: reference, encoding: .utf8)
        .replacingOccurrences(of: "What is 5+3?", with: #"What\u001b]0;pwned\u0007 is \u202e5+3?\u009b"#)
    try Data(transcript.utf8).write(to: folder.appendingPathComponent("t.json"))
    for flags in [["t.json"], ["--json", "t.json"]] {
        let inspect = try runFMEval(["transcript", "inspect"] + flags, directory: folder)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        clean(inspect.stdout + inspect.stderr, "transcript inspect \(flags)")
    }
}
