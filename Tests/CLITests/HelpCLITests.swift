import Foundation
import Testing

@Test func helpListsCommandsAndExitsZero() throws {
    let result = try runFMEval(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("COMMANDS:"))
    #expect(result.stdout.contains("help"))
}

@Test func unknownCommandIsInvalidInputWithSuggestion() throws {
    let result = try runFMEval(["hepl"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean 'help'"))
}

/// `--` ends the flags for every kind of flag: after it, `--json` (a boolean flag) is a path like any other.
@Test func doubleDashEndsBooleanFlagsToo() throws {
    let folder = try temporaryFolder()
    let dashed = folder.appendingPathComponent("--json")
    try FileManager.default.createDirectory(at: dashed, withIntermediateDirectories: true)
    try "suite: dashed\nengine: scripted\ncases:\n  - { id: a, prompt: Hi, script: [ { text: hi } ] }\n"
        .write(to: dashed.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let result = try runFMEval(["validate", "--", "--json"], directory: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("0 errors") && !result.stdout.hasPrefix("["),
            "the summary, not JSON (--json after -- is not the flag): \(result.stdout)")
}
