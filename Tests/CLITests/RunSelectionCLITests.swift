import Foundation
import Testing

/// A scripted suite of four quick cases: a pass, a failure, a case whose command tool errors until
/// `ready.txt` exists beside the suite, and another pass. Written into `folder`; returns its path.
func innerLoopSuite(in folder: URL) throws -> String {
    let suite = """
    suite: loop
    engine: scripted
    tools:
      - name: probe
        description: Reads a file that may not exist yet.
        arguments: { type: object, properties: { q: { type: string } } }
        output: { command: [sh, -c, "cat ready.txt"], timeoutSeconds: 5 }
    cases:
      - id: a-pass
        tags: [quick]
        prompt: one
        script: [ { text: one } ]
        expect: { equals: one }
      - id: b-fail
        prompt: two
        script: [ { text: nope } ]
        expect: { equals: two }
      - id: c-tool
        prompt: three
        script:
          - toolCalls: [ { name: probe, arguments: { q: x } } ]
          - text: three
        expect: { equals: three }
      - id: d-pass
        prompt: four
        script: [ { text: four } ]
        expect: { equals: four }
    """
    let path = folder.appendingPathComponent("loop.yaml").path
    try Data(suite.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

@Test func aFilterThatSelectsNoCaseExitsTwoNamingTheClosestIDs() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    let (run, results) = try runSuite([suite, "--filter", "id:b-fail"], in: folder)
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(results == nil, "nothing runs")
    #expect(run.stderr.contains("--filter 'id:b-fail' selects none of the 4 cases in \(suite)"))
    #expect(run.stderr.contains("closest case ids: loop/b-fail"))
    #expect(run.stderr.contains("write id:*b-fail* to match part of it"))
    #expect(!run.stdout.contains("All gates hold"))
    let (tag, _) = try runSuite([suite, "-k", "tag:quik", "--shard", "1/2"], in: folder)
    #expect(tag.status == 2)
    #expect(tag.stderr.contains("did you mean tag:quick?"))
    #expect(tag.stderr.contains("closest case ids: loop/a-pass"))
    #expect(tag.stderr.contains("--shard 1/2 would apply after it"))
}

@Test func foldersWithoutSuitesAreInvalidInputForValidateAndRun() throws {
    let folder = try temporaryFolder()
    let empty = folder.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    try Data("notes\n".utf8).write(to: empty.appendingPathComponent("README.txt"))
    let validate = try runFMEval(["validate", empty.path])
    #expect(validate.status == 2)
    #expect(validate.stderr.contains("\(empty.path):1:1: error: no suite files (.yaml, .yml, .json) in this folder"))
    #expect(validate.stdout.contains("0 suites, 0 cases, 1 error"))
    let noCases = folder.appendingPathComponent("none.yaml")
    try Data("suite: none\nengine: scripted\ncases: []\n".utf8).write(to: noCases)
    let caseless = try runFMEval(["validate", noCases.path])
    #expect(caseless.status == 2)
    #expect(caseless.stderr.contains("define no cases"))
    #expect(caseless.stdout.contains("1 suite, 0 cases, 1 error"))
    let suite = try innerLoopSuite(in: folder)
    let mixed = try runFMEval(["validate", suite, empty.path])
    #expect(mixed.status == 2, "a mistyped folder beside a good suite still fails")
    let (run, results) = try runSuite([empty.path], in: folder)
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(empty.path):1:1: error: no suite files"))
    #expect(results == nil)
}

@Test func anEmptyShardExitsZeroSaysSoAndMergesWithTheOthers() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    try Data("three".utf8).write(to: folder.appendingPathComponent("ready.txt"))
    var files: [String] = []
    var empty = 0
    for index in 1...8 {
        let json = folder.appendingPathComponent("shard-\(index).json").path
        let run = try runFMEval(["run", suite, "-k", "*-pass", "--shard", "\(index)/8", "--json", json], environment: ["CI": "true"])
        files.append(json)
        let document = try Results(path: json)
        if document.cases.isEmpty {
            empty += 1
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("--shard \(index)/8: none of the 2 selected cases falls in this shard; nothing to run"))
        } else {
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
    }
    #expect(empty >= 6, "two cases fill at most two of eight shards")
    let merged = try runFMEval(["merge"] + files + ["--json", folder.appendingPathComponent("merged.json").path])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(Set(try Results(path: folder.appendingPathComponent("merged.json").path).statuses.keys) == ["a-pass", "d-pass"])
}

@Test func failFastStopsSchedulingAndStillWritesResultsAndReports() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    let junit = folder.appendingPathComponent("junit.xml").path
    let (run, results) = try runSuite([suite, "-x", "-j", "1", "--junit", junit], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let document = try #require(results)
    #expect(document.statuses == ["a-pass": "passed", "b-fail": "failed"], "cases after the first failure are not run")
    #expect(document.summary["skipped"] as? Int == 2)
    let skipped = document.document["skipped"] as? [[String: Any]] ?? []
    #expect(skipped.map { $0["caseID"] as? String } == ["c-tool", "d-pass"])
    let reason = skipped.first?["reason"] as? String ?? ""
    #expect(reason.contains("--fail-fast stopped the run after loop/b-fail failed"))
    #expect(run.stdout.contains("Stopped by --fail-fast after loop/b-fail failed: 2 cases not run"))
    #expect(!run.stdout.contains("loop/c-tool  "), "no line for a case that did not run")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<skipped message=\"not run: --fail-fast"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("results.jsonl").path))

    let all = try runSuite([suite, "-j1"], in: folder).1
    #expect(try #require(all).cases.count == 4, "without -x every case runs")
}

@Test func lastFailedRerunsOnlyTheCasesThatFailed() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    let (missing, _) = try runSuite([suite, "--last-failed"], in: folder)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--last-failed: no earlier results at"))
    let (first, _) = try runSuite([suite], in: folder)
    #expect(first.status == 3)
    let (again, results) = try runSuite(["--last-failed"], in: folder)
    #expect(again.status == 3, "\(again.stdout)\(again.stderr)")
    #expect(again.stdout.contains("fmeval run: 2 cases (the cases that failed in"))
    #expect(!again.stdout.contains("loop/a-pass"))
    #expect(try #require(results).statuses == ["b-fail": "failed", "c-tool": "error"])

    try Data("three".utf8).write(to: folder.appendingPathComponent("ready.txt"))
    let (fixed, fixedResults) = try runSuite(["--last-failed"], in: folder)
    #expect(fixed.status == 1)
    #expect(try #require(fixedResults).statuses == ["b-fail": "failed", "c-tool": "passed"])

    let passing = folder.appendingPathComponent("passing.json").path
    let green = try runFMEval(["run", suite, "-k", "*-pass", "--json", passing], environment: ["CI": "true"])
    #expect(green.status == 0)
    let none = try runFMEval(["run", suite, "--last-failed=\(passing)"], environment: ["CI": "true"])
    #expect(none.status == 0, "\(none.stderr)")
    #expect(none.stdout.contains("--last-failed: no case failed or errored in \(passing)"))
    #expect(none.stdout.contains("nothing to rerun"))
    let spaced = try runFMEval(["run", "--last-failed", passing], environment: ["CI": "true"])
    #expect(spaced.status == 2)
    #expect(spaced.stderr.contains("attach it to the flag: --last-failed=\(passing)"))
}

@Test func retryErrorsMergesTheRetriedCasesIntoTheEarlierResults() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    let file = folder.appendingPathComponent("outage.json").path
    let first = try runFMEval(["run", suite, "--json", file], environment: ["CI": "true"])
    #expect(first.status == 3)
    let before = try Results(path: file)
    #expect(before.statuses == ["a-pass": "passed", "b-fail": "failed", "c-tool": "error", "d-pass": "passed"])

    try Data("three".utf8).write(to: folder.appendingPathComponent("ready.txt"))
    let html = folder.appendingPathComponent("report.html").path
    let retry = try runFMEval(["run", "--retry-errors", file, "--html", html, "-v"], environment: ["CI": "true"])
    #expect(retry.status == 1, "b-fail still fails: \(retry.stdout)\(retry.stderr)")
    #expect(retry.stdout.contains("fmeval run: 1 case (the error cases of \(file)"))
    #expect(retry.stdout.contains("[1/1] PASS  loop/c-tool"))
    let after = try Results(path: file)
    #expect(after.statuses == ["a-pass": "passed", "b-fail": "failed", "c-tool": "passed", "d-pass": "passed"])
    let keptBefore = try before.case("b-fail")["durationMs"] as? Double
    #expect(try after.case("b-fail")["durationMs"] as? Double == keptBefore, "the other cases are kept as they were")
    let run = after.document["run"] as? [String: Any]
    #expect(run?["resumedFrom"] as? String == file)
    #expect(run?["id"] as? String == (before.document["run"] as? [String: Any])?["id"] as? String)
    #expect(after.summary["errored"] as? Int == 0)
    #expect(FileManager.default.fileExists(atPath: html))

    let nothing = try runFMEval(["run", "--retry-errors", file], environment: ["CI": "true"])
    #expect(nothing.status == 0)
    #expect(nothing.stdout.contains("nothing to retry"))
    let both = try runFMEval(["run", suite, "--retry-errors", file, "--resume", file])
    #expect(both.status == 2)
    #expect(both.stderr.contains("--resume and --retry-errors exclude each other"))
}

@Test func colourFollowsTheColorFlagAndNoColor() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    try Data("three".utf8).write(to: folder.appendingPathComponent("ready.txt"))
    let always = try runSuite([suite, "--color", "always", "-v"], in: folder).0
    #expect(always.stdout.contains("\u{1B}[31mFAIL\u{1B}[0m"), "FAIL in red")
    #expect(always.stdout.contains("\u{1B}[32mPASS\u{1B}[0m"), "PASS in green")
    #expect(always.stdout.contains("\u{1B}[2m  — equals"), "the reason dimmed")
    let alwaysOverNoColor = try runFMEval(["run", suite, "--color=always", "--json", folder.appendingPathComponent("r.json").path],
                                         environment: ["CI": "true", "NO_COLOR": "1"])
    #expect(alwaysOverNoColor.stdout.contains("\u{1B}["), "a command-line flag overrides NO_COLOR")
    let never = try runSuite([suite, "--color", "never"], in: folder).0
    #expect(!never.stdout.contains("\u{1B}"))
    let auto = try runFMEval(["run", suite, "--json", folder.appendingPathComponent("a.json").path], environment: ["CI": "true", "NO_COLOR": "1"])
    #expect(auto.status == 1)
    #expect(!auto.stdout.contains("\u{1B}"), "auto never colours into a pipe")
    let bad = try runSuite([suite, "--color", "alway"], in: folder).0
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("did you mean always?"))
}

@Test func shortFlagsTakeTheirValueAsTheNextWordOrAttached() throws {
    let folder = try temporaryFolder()
    let suite = try innerLoopSuite(in: folder)
    let out = folder.appendingPathComponent("out")
    let run = try runFMEval(["run", suite, "-kloop/a-pass", "-j2", "-o", out.path], environment: ["CI": "true"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try Results(path: out.appendingPathComponent("results.json").path).statuses == ["a-pass": "passed"])
    let equals = try runFMEval(["run", suite, "-j=2"])
    #expect(equals.status == 2)
    #expect(equals.stderr.contains("write -j VALUE, -jVALUE or --jobs=VALUE"))
    let help = try runFMEval(["help", "run"])
    for text in ["-j, --jobs N", "-k, --filter EXPR", "-o, --out DIR", "-x, --fail-fast", "--last-failed[=FILE]",
                 "--retry-errors FILE", "--color WHEN"] {
        #expect(help.stdout.contains(text), "help names \(text)")
    }
}

/// Without paths, `run` and `validate` find `suites/` in the nearest folder above (as pytest finds its
/// root), and where there is none they say what to do instead of `suites:1:1: no such file`.
@Test func withoutPathsTheNearestSuitesFolderAboveIsFound() throws {
    let root = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let suites = root.appendingPathComponent("suites"), deep = root.appendingPathComponent("app/Sources")
    try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    let suite = "suite: s\nengine: scripted\ncases:\n"
        + "  - { id: c, prompt: p, script: [ { text: yes } ], expect: { contains: yes } }\n"
    try suite.write(to: suites.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let validate = try runFMEval(["validate"], directory: deep)
    #expect(validate.status == 0 && validate.stdout.contains("1 suite, 1 case, 0 errors"),
            "\(validate.stdout)\(validate.stderr)")
    let run = try runFMEval(["run", "--no-history", "--json", "r.json"], directory: deep)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let lost = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: lost) }
    var above = lost.deletingLastPathComponent()
    while above.path != "/" && !FileManager.default.fileExists(atPath: above.appendingPathComponent("suites").path) {
        above.deleteLastPathComponent()
    }
    let ancestorHasSuites = FileManager.default.fileExists(atPath: above.appendingPathComponent("suites").path)
    for command in ["run", "validate"] where !ancestorHasSuites {
        let result = try runFMEval([command], directory: lost)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("no suite paths given, and no 'suites' folder in")
                && result.stderr.contains("fmeval init"), "\(result.stderr)")
    }
}
