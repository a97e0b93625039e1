import Foundation
import Testing

/// README.md's command synopsis is the text the commands' flag tables print, so it cannot drift from them.
@Test func readmeSynopsisIsTheFlagTables() throws {
    let generated = try runFMEval(["help", "--synopsis"])
    #expect(generated.status == 0, "\(generated.stderr)")
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.components(separatedBy: "\n")
    let marker = try #require(lines.firstIndex { $0.hasPrefix("<!-- synopsis:") }, "README.md has the synopsis marker")
    let fence = lines[(marker + 2)...].firstIndex(of: "```") ?? lines.endIndex
    let block = lines[(marker + 2)..<fence].joined(separator: "\n") + "\n"
    #expect(lines[marker + 1] == "```" && block == generated.stdout, """
        README.md's synopsis block (after the `<!-- synopsis:` line) differs from the flag tables; regenerate it: \
        replace the lines of that block with the output of `swift run -c release fmeval help --synopsis`
        """)
}

/// Every flag kind stops at `--`, and a flag outside the command's table is refused with a suggestion.
@Test func flagTablesParseEveryKindAndRefuseOthers() throws {
    let unknown = try runFMEval(["validate", "--jsn"])
    #expect(unknown.status == 2 && unknown.stderr.contains("validate: unknown flag --jsn (did you mean --json?)"),
            "\(unknown.stderr)")
    let foreign = try runFMEval(["validate", "--engine", "scripted"])
    #expect(foreign.status == 2 && foreign.stderr.contains("unknown flag --engine"), "\(foreign.stderr)")
    let attached = try runFMEval(["validate", "--json=yes"])
    #expect(attached.status == 2 && attached.stderr.contains("--json takes no value"), "\(attached.stderr)")
    let missing = try runFMEval(["run", "--shard"])
    #expect(missing.status == 2 && missing.stderr.contains("run: --shard needs a value"), "\(missing.stderr)")
    let empty = try runFMEval(["run", "--last-failed="])
    #expect(empty.status == 2 && empty.stderr.contains("--last-failed= needs a file after '='"), "\(empty.stderr)")
    let dashed = try runFMEval(["transcript", "convert", "--", "--dialect"])
    #expect(!dashed.stderr.contains("needs a value") && !dashed.stderr.contains("unknown flag"),
            "after --, --dialect is the FILE.json: \(dashed.stderr)")
}
