import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// A session whose only tool runs `/bin/sh -c script`.
private func commandSession(_ script: String, timeout: Double = 5) throws -> LanguageModelSession {
    let tool = try cityTool(output: .command(ToolCommand(argv: ["/bin/sh", "-c", script], timeoutSeconds: timeout)))
    return scriptedSession([.toolCalls([call(city: "Paris")]), .text("done")], configuration: SessionConfiguration(tools: [tool]))
}

@Test func commandToolReadsArgumentsOnStdin() throws {
    let session = try commandSession("read line; echo \"got $line for $FMEVAL_TOOL_NAME\"")
    _ = try session.respond(to: "q")
    #expect(StructuredTranscript(session.transcript).toolOutputs.map(\.text) == [#"got {"city":"Paris"} for getCityInfo"#])
}

@Test func theTurnCountsTheTimeItsToolsTook() throws {
    let session = try commandSession("sleep 0.2; echo ok")
    let response = try session.respond(to: "q")
    #expect(response.stats.toolCalls == 1)
    #expect(response.stats.toolMs >= 200, "the command slept 0.2 s: \(response.stats.toolMs) ms")
    let untooled = scriptedSession([.text("hi")])
    #expect(try untooled.respond(to: "q").stats.toolMs == 0)
}

@Test func commandToolThatCrashesHangsOrPrintsGarbageFailsClearly() throws {
    let crash = try commandSession("echo boom >&2; exit 3")
    do {
        _ = try crash.respond(to: "q")
        Issue.record("expected a failure")
    } catch let error as ToolCallError {
        #expect(error.description.contains("exited with status 3"))
        #expect(error.description.contains("boom"))
    }
    let hang = try commandSession("sleep 30", timeout: 0.3)
    let started = Date()
    do {
        _ = try hang.respond(to: "q")
        Issue.record("expected a timeout")
    } catch let error as ToolCallError {
        #expect(error.description.contains("did not finish within"))
    }
    #expect(Date().timeIntervalSince(started) < 5)
    let garbage = try commandSession("printf '\\377\\376'")
    do {
        _ = try garbage.respond(to: "q")
        Issue.record("expected a garbage failure")
    } catch let error as ToolCallError {
        #expect(error.description.contains("not UTF-8"))
    }
}

/// A session whose only tool runs `/bin/sh -c script` under `commands`.
private func policySession(_ script: String, commands: CommandPolicy) throws -> LanguageModelSession {
    let tool = try cityTool(output: .command(ToolCommand(argv: ["/bin/sh", "-c", script])))
    var configuration = SessionConfiguration(tools: [tool])
    configuration.commands = commands
    return scriptedSession([.toolCalls([call(city: "Paris")]), .text("done")], configuration: configuration)
}

@Test func aLongToolOutputIsCutAndTheCutIsToldToTheModel() throws {
    let started = Date()
    let session = try policySession("cat >/dev/null; head -c 5000000 /dev/zero | tr '\\0' a", commands: CommandPolicy(toolOutputLimit: 100))
    _ = try session.respond(to: "q")
    print("5 MB tool output cut in \(Date().timeIntervalSince(started)) s")
    let output = try #require(StructuredTranscript(session.transcript).toolOutputs.first?.text)
    #expect(output == String(repeating: "a", count: 100) + "\n" + ToolCommand.truncationNote(kept: 100, of: 5_000_000))
    #expect(output.hasSuffix("[fmeval: tool output truncated: 100 of 5000000 bytes kept; raise toolOutputLimit in the suite to keep more]"))
}

@Test func toolsSeeTheirPolicysVariablesAndPrintNoSecret() throws {
    // The test process's environment stays as it is: other tests' threads read it meanwhile, and setenv
    // beside a reader is undefined behaviour in glibc. Passing fmeval's own variables is ChildProcessTests'
    // (the policy) and ProcessCLITests' (a real run given its own environment).
    let script = "cat >/dev/null; echo \"[$FMEVAL_TEST_API_KEY] [$MODE]\"; echo \"$FMEVAL_TEST_API_KEY\" >&2; exit 1"
    let policy = CommandPolicy(set: ["FMEVAL_TEST_API_KEY": "sk-session-canary-1", "MODE": "test"])
    let open = try policySession(script.replacingOccurrences(of: "; exit 1", with: ""), commands: policy)
    _ = try open.respond(to: "q")
    #expect(StructuredTranscript(open.transcript).toolOutputs.map(\.text) == ["[[redacted FMEVAL_TEST_API_KEY]] [test]"])
    let closed = try policySession(script.replacingOccurrences(of: "; exit 1", with: ""), commands: CommandPolicy())
    _ = try closed.respond(to: "q")
    #expect(StructuredTranscript(closed.transcript).toolOutputs.map(\.text) == ["[] []"])
    let failing = try policySession(script, commands: policy)
    do {
        _ = try failing.respond(to: "q")
        Issue.record("expected a failure")
    } catch let error as ToolCallError {
        #expect(error.description.contains("exited with status 1"), "\(error)")
        #expect(!error.description.contains("sk-session-canary-1"), "\(error)")
        #expect(error.description.contains("[redacted FMEVAL_TEST_API_KEY]"), "\(error)")
    }
}
