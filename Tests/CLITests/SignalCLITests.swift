import Foundation
import Testing
import TestSupport

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
    let child = try #require(pid(writtenTo: folder.appendingPathComponent("child.pid").path, within: 60), "the tool never started")
    let grandchild = try #require(pid(writtenTo: folder.appendingPathComponent("grandchild.pid").path, within: 60), "the tool's sleeper never started")
    let started = Date()
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    print("fmeval exited \(Date().timeIntervalSince(started)) s after signal \(signal)")
    #expect(process.terminationReason == .exit && process.terminationStatus == status)
    let childGone = processEnds(child, within: 2), grandchildGone = processEnds(grandchild, within: 2)
    #expect(childGone, "the tool's shell \(child) outlived fmeval")
    #expect(grandchildGone, "the tool's background sleeper \(grandchild) outlived fmeval")
    for pid in [child, grandchild] where processIsRunning(pid) { kill(pid, SIGKILL) }
    let journal = try String(contentsOfFile: json + "l", encoding: .utf8)
    #expect(journal.contains(#""caseID":"first""#) && journal.contains(#""caseID":"second""#), "the finished cases are in the journal")
    #expect(!journal.contains(#""caseID":"sleeps""#), "the interrupted case is not")
}
