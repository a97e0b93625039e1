import Foundation
import Testing

/// The fixture library (scripted suites standing in for suites/forum) and its committed catalogue.
private let library = "Tests/CLITests/fixtures/catalogue/suites"
private let committed = "Tests/CLITests/fixtures/catalogue/forum-bugs.md"

@Test func theCommittedFixtureCatalogueIsUpToDate() throws {
    let check = try runFMEval(["catalogue", library, "--check", committed])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout.contains("\(committed) is up to date"))
}

@Test func aStaleCatalogueExitsOneAndSaysHowToRegenerateIt() throws {
    let folder = try temporaryFolder()
    let stale = folder.appendingPathComponent("forum-bugs.md")
    let text = try String(contentsOf: packageRoot.appendingPathComponent(committed), encoding: .utf8)
    try text.replacingOccurrences(of: "| 2/4 | 15%–85% |", with: "| 1/4 | 5%–70% |").write(to: stale, atomically: true, encoding: .utf8)
    let check = try runFMEval(["catalogue", library, "--check", stale.path])
    #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
    #expect(check.stderr.contains("\(stale.path) is stale; run `fmeval catalogue \(library) --output \(stale.path)`"), "\(check.stderr)")
    let written = folder.appendingPathComponent("regenerated.md")
    let output = try runFMEval(["catalogue", library, "--output", written.path])
    #expect(output.status == 0, "\(output.stderr)")
    let regenerated = try String(contentsOf: written, encoding: .utf8)
    #expect(regenerated == text.replacingOccurrences(of: "--output \(committed)", with: "--output \(written.path)"), "the same suites give the same catalogue")
}

@Test func theCatalogueFromAResultsFileMatchesTheOneFromARun() throws {
    let folder = try temporaryFolder()
    let results = folder.appendingPathComponent("results.json").path
    let run = try runFMEval(["run", library, "--json", results, "--no-history"], environment: ["CI": "true"])
    #expect(run.status == 1, "the fixture's grammar variant fails on the scripted engine: \(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("— reproduced 2/4 (95% CI 15%–85%)"), "\(run.stdout)")
    let fromResults = try runFMEval(["catalogue", library, "--results", results])
    let fromRun = try runFMEval(["catalogue", library])
    #expect(fromResults.status == 0 && fromRun.status == 0, "\(fromResults.stderr)\(fromRun.stderr)")
    #expect(fromResults.stdout.replacingOccurrences(of: " --results \(results)", with: "") == fromRun.stdout)
    #expect(fromRun.stdout.contains("| beijing | prompt | toolCalls: getCityInfo(city ∈ {London, New York, Paris}) | 2/4 | 15%–85% | known issue, reproduces |"))
    #expect(fromRun.stdout.contains("| plain | — | contains: hello; not: contains: bye | 0/1 | 0%–79% | passes |"))
}

@Test(arguments: [
    (["--output", "a.md", "--check", "b.md"], "--output and --check exclude each other"),
    (["--results", "r.json", "--engine", "embedded"], "--results takes the results as they were run"),
    (["--check", "/nonexistent/forum-bugs.md"], "--check /nonexistent/forum-bugs.md: no such file"),
    (["--results", "/nonexistent/results.json"], "catalogue: --results"),
    (["--bogus"], "unknown flag --bogus"),
] as [([String], String)])
func catalogueFlagErrorsExitTwo(flags: [String], message: String) throws {
    let result = try runFMEval(["catalogue", library] + flags)
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
}

@Test func anInvalidSuiteStopsTheCatalogueWithItsLocation() throws {
    let folder = try temporaryFolder()
    try "suite: bad\nreproducedWith: modle\ncases:\n  - { id: a, prompt: hi }\n".write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let result = try runFMEval(["catalogue", folder.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.yaml:2:17: error: unknown reproducedWith 'modle'; did you mean 'model'?"), "\(result.stderr)")
}

@Test func helpListsTheCatalogueCommand() throws {
    let help = try runFMEval(["--help"])
    #expect(help.stdout.contains("catalogue") && help.stdout.contains("catalogue of reproduced bugs"))
    let own = try runFMEval(["help", "catalogue"])
    #expect(own.status == 0 && own.stdout.contains("USAGE: fmeval catalogue [PATH...] [--output FILE | --check FILE] [--results FILE]"))
}

/// The repository's catalogue of the forum-bug library matches a run of it (enabled once suites/forum
/// exists; regenerate with `fmeval catalogue suites/forum --output docs/forum-bugs.md`).
@Test(.enabled(if: FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("suites/forum").path)))
func theRepositorysForumCatalogueIsUpToDate() throws {
    let check = try runFMEval(["catalogue", "suites/forum", "--check", "docs/forum-bugs.md"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
}
