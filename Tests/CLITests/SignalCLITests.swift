import Foundation
import Testing

/// Reads a pid a command tool wrote to `file`, waiting up to a minute for it to appear.
private func awaitPid(_ file: String) -> pid_t? {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
        if let text = try? String(contentsOfFile: file, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return pid
        }
        usleep(50_000)
    }
    return nil
}

/// Whether `pid` is gone (a zombie counts as gone), waiting up to two seconds for it to go.
private func isGone(_ pid: pid_t) -> Bool {
    for _ in 0 ..< 40 {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        if kill(pid, 0) != 0 || stat.contains(") Z ") { return true }
        usleep(50_000)
    }
    return false
}

/// SIGINT exits 130 and SIGTERM 143; either ends the running tool's whole process group and keeps the
/// finished cases in the journal.
@Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
func aStopSignalEndsTheToolsWholeProcessGroupAndKeepsTheFinishedCases(signal: Int32, status: Int32) throws {
    let folder = try temporaryFolder()
    let suite = """
    suite: sigint
    engine: scripted
    tools:
      - name: slow
        description: Sleeps in a grandchild.
        arguments: { type: object, properties: { q: { type: string } } }
        output: { command: [sh, -c, "sleep 60 & echo $! > grandchild.pid; echo $$ > child.pid; wait"], timeoutSeconds: 100 }
    cases:
      - { id: first, prompt: one, script: [ { text: one } ], expect: { equals: one } }
      - { id: second, prompt: two, script: [ { text: two } ], expect: { equals: two } }
      - id: sleeps
        prompt: three
        script:
          - toolCalls: [ { name: slow, arguments: { q: x } } ]
          - text: three
        expect: { equals: three }
    """
    let path = folder.appendingPathComponent("sigint.yaml").path
    try Data(suite.utf8).write(to: URL(fileURLWithPath: path))
    let json = folder.appendingPathComponent("results.json").path
    let process = Process()
    process.executableURL = fmevalBinary()
    process.arguments = ["run", path, "-j", "1", "--json", json]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let child = try #require(awaitPid(folder.appendingPathComponent("child.pid").path), "the tool never started")
    let grandchild = try #require(awaitPid(folder.appendingPathComponent("grandchild.pid").path), "the tool's sleeper never started")
    let started = Date()
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    print("fmeval exited \(Date().timeIntervalSince(started)) s after signal \(signal)")
    #expect(process.terminationReason == .exit && process.terminationStatus == status)
    let childGone = isGone(child), grandchildGone = isGone(grandchild)
    #expect(childGone, "the tool's shell \(child) outlived fmeval")
    #expect(grandchildGone, "the tool's background sleeper \(grandchild) outlived fmeval")
    for pid in [child, grandchild] where !isGone(pid) { kill(pid, SIGKILL) }
    let journal = try String(contentsOfFile: json + "l", encoding: .utf8)
    #expect(journal.contains(#""caseID":"first""#) && journal.contains(#""caseID":"second""#), "the finished cases are in the journal")
    #expect(!journal.contains(#""caseID":"sleeps""#), "the interrupted case is not")
}
