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
    #expect((run.stdout + run.stderr).contains("not apply to the 2 cases of suite "
        + "'refusal-as-guardrail-violation', which keep engine 'scripted' (suites/forum/refusal-as-guardrail-violation.yaml:"))
    #expect((run.stdout + run.stderr).contains("they play Apple's model through a script"))
    #expect(run.stdout.contains("KNOWN refusal-as-guardrail-violation/live-score"))
}

/// A suite pinned to the scripted engine keeps it under `--engine` too, and the run says so for the suite:
/// the scripts are what its cases test, and another engine would ignore them (its known issues would then
/// "still reproduce" for another reason). Before, the cases ran on the openai engine at a closed port (exit 3).
@Test func aScriptedSuiteKeepsItsEngineUnderTheEngineFlagAndSaysSo() throws {
    let folder = try temporaryFolder()
    try Data("suite: s\nengine: scripted\ncases:\n  - id: a\n    prompt: Hi\n    script: [{text: hello}]\n    expect: { contains: hello }\n".utf8)
        .write(to: folder.appendingPathComponent("s.yaml"))
    let run = try runFMEval(["run", folder.appendingPathComponent("s.yaml").path, "--engine", "openai", "--model", "m",
                             "--base-url", "http://127.0.0.1:9/v1", "-o", folder.path, "--no-history"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect((run.stdout + run.stderr).contains("do not apply to the 1 case of suite 's', which keep engine 'scripted' ("))
    #expect((run.stdout + run.stderr).contains("s.yaml:2:9): another engine would ignore their script"))
    #expect(!(run.stdout + run.stderr).contains("play Apple's model"))
}
