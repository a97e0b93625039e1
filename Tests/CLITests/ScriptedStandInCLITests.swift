import Foundation
import Testing

/// A forum suite that plays Apple's model through a script keeps its script under `--engine openai`:
/// the other engine would show its own model's behaviour, not the reported one. The base URL names a
/// closed port, so a case that reached the openai engine would end in an infrastructure error (exit 3).
@Test func aScriptedStandInForApplesModelKeepsItsScriptUnderAnotherEngine() throws {
    let out = try temporaryFolder()
    let run = try runFMEval(["run", "suites/forum/refusal-as-guardrail-violation.yaml", "--engine", "openai",
                             "--base-url", "http://127.0.0.1:9/v1", "-o", out.path, "--no-history"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect((run.stdout + run.stderr).contains("do not apply to the 2 cases that play Apple's model through a script (refusal-as-guardrail-violation)"))
    #expect(run.stdout.contains("KNOWN refusal-as-guardrail-violation/live-score"))
}

/// A suite pinned to the scripted engine follows `--engine` (record and replay rely on it), and the run
/// says so for the suite: its scripts go unplayed. Before, the engine was replaced without a word.
@Test func aScriptedSuiteFollowsTheEngineFlagAndSaysSo() throws {
    let folder = try temporaryFolder()
    try Data("suite: s\nengine: scripted\ncases:\n  - id: a\n    prompt: Hi\n    script: [{text: hello}]\n    expect: { contains: hello }\n".utf8)
        .write(to: folder.appendingPathComponent("s.yaml"))
    let run = try runFMEval(["run", folder.appendingPathComponent("s.yaml").path, "--engine", "openai", "--model", "m",
                             "--base-url", "http://127.0.0.1:9/v1", "-o", folder.path, "--no-history"])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("OpenAIError.connectionRefused"))
    #expect((run.stdout + run.stderr).contains("the 1 case of suite 's' on engine 'openai', not on 'scripted' ("))
    #expect((run.stdout + run.stderr).contains("s.yaml:2:9): their `script:` is not played"))
    #expect(!(run.stdout + run.stderr).contains("play Apple's model"))
}
