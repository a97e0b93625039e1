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

@Test func commandToolThatCrashesHangsOrPrintsGarbageFailsClearly() throws {
    let crash = try commandSession("echo boom >&2; exit 3")
    do {
        _ = try crash.respond(to: "q")
        Issue.record("expected a failure")
    } catch let error as SessionError {
        #expect(error.description.contains("exited with status 3"))
        #expect(error.description.contains("boom"))
    }
    let hang = try commandSession("sleep 30", timeout: 0.3)
    let started = Date()
    do {
        _ = try hang.respond(to: "q")
        Issue.record("expected a timeout")
    } catch let error as SessionError {
        #expect(error.description.contains("did not finish within"))
    }
    #expect(Date().timeIntervalSince(started) < 5)
    let garbage = try commandSession("printf '\\377\\376'")
    do {
        _ = try garbage.respond(to: "q")
        Issue.record("expected a garbage failure")
    } catch let error as SessionError {
        #expect(error.description.contains("not UTF-8"))
    }
}
