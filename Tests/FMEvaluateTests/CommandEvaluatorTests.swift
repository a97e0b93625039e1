import Foundation
import FMCore
import Testing
import TestSupport
@testable import FMEvaluate

@Suite struct CommandEvaluatorTests {
    func run(_ script: String, timeout: Double = 10) -> Metric? {
        CommandEvaluator(CommandConfig(argv: ["sh", "-c", script], timeoutSeconds: timeout, name: "ext")).evaluate(textSubject("Paris", prompt: "Capital of France?")).first
    }

    @Test func readsTheSubjectAndReportsItsMetric() {
        // The command sees the subject JSON on stdin and passes when it finds the output text.
        let metric = run(#"if grep -q '"text":"Paris"'; then echo '{"value":"passing","rationale":"found Paris"}'; else echo '{"value":"failing","rationale":"no Paris"}'; fi"#)
        #expect(metric == .passing("ext", rationale: "found Paris"))
        let scored = run(#"cat >/dev/null; echo '{"value":"scoring","score":0.25,"threshold":0.5}'"#)
        #expect(scored?.value == .scoring(0.25))
        #expect(scored?.verdict == false)
    }

    @Test func garbageOutputIsAnEvaluatorError() {
        let metric = run("cat >/dev/null; echo 'all good!'")
        #expect(metric?.value == .failing)
        #expect(metric?.rationale?.hasPrefix("evaluator error: 'sh' printed something that is not JSON") == true)
        let wrongShape = run(#"cat >/dev/null; echo '{"value":"great"}'"#)
        #expect(wrongShape?.rationale?.contains("\"value\" must be") == true)
        let empty = run("cat >/dev/null")
        #expect(empty?.rationale?.contains("printed nothing on stdout") == true)
    }

    @Test func nonZeroExitAndCrashAreEvaluatorErrors() {
        let exit = run("cat >/dev/null; echo oops >&2; exit 3")
        #expect(exit?.rationale == "evaluator error: 'sh' exited with status 3; stderr: oops")
        let crash = run("kill -SEGV $$")
        #expect(crash?.value == .failing)
        #expect(crash?.rationale?.contains("crashed (signal 11)") == true)
    }

    @Test func hangingCommandTimesOut() {
        let metric = run("sleep 30", timeout: 0.5)
        #expect(metric?.rationale == "evaluator error: 'sh' did not finish within 0.5 s and was killed")
    }

    @Test func missingProgramAndIgnoredInput() {
        let missing = CommandEvaluator(CommandConfig(argv: ["fmeval-no-such-program-xyz"])).evaluate(textSubject("x")).first
        #expect(missing?.value == .failing)
        #expect(missing?.rationale?.contains("cannot start 'fmeval-no-such-program-xyz': not found on PATH") == true)
        // A command that never reads stdin must not break the evaluator (no SIGPIPE).
        #expect(run(#"echo '{"value":"passing"}'"#)?.value == .passing)
        #expect(CommandConfig(argv: []).problems.count == 1)
    }
}

@Suite struct CommandEvaluatorEnvironmentTests {
    @Test func theEvaluatorGetsTheSuiteEnvironmentAndItsSecretsAreRedacted() {
        let script = #"cat >/dev/null; printf '{"value":"failing","rationale":"[%s] [%s]"}' "$FMEVAL_EVAL_TOKEN" "$HIDDEN""#
        let config = CommandConfig(argv: ["sh", "-c", script])
        let closed = CommandEvaluator(config, commands: CommandPolicy(set: ["HIDDEN": "h"])).evaluate(textSubject("x")).first
        #expect(closed?.rationale == "[] [h]")
        let policy = CommandPolicy(set: ["FMEVAL_EVAL_TOKEN": "tok-evaluator-1", "HIDDEN": "plain-secret"], secrets: ["HIDDEN"])
        let open = CommandEvaluator(config, commands: policy).evaluate(textSubject("x")).first
        #expect(open?.rationale == "[[redacted FMEVAL_EVAL_TOKEN]] [[redacted HIDDEN]]")
    }

    @Test func anEvaluatorThatPrintsTooMuchIsAnEvaluatorError() {
        let started = Date()
        let metric = CommandEvaluator(CommandConfig(argv: ["sh", "-c", "cat >/dev/null; head -c 30000000 /dev/zero"])).evaluate(textSubject("x")).first
        print("30 MB evaluator output refused in \(Date().timeIntervalSince(started)) s")
        #expect(metric?.rationale == "evaluator error: 'sh' printed 30000000 bytes on stdout, more than the 1048576 read; it must print one JSON metric")
    }
}

@Suite struct CommandProcessGroupTests {
    @Test func timeoutAlsoEndsTheCommandsChildren() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-child-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let script = "sleep 30 & echo $! > '\(pidFile.path)'; wait"
        let metric = CommandEvaluator(CommandConfig(argv: ["sh", "-c", script], timeoutSeconds: 0.5)).evaluate(textSubject("x")).first
        #expect(metric?.rationale?.contains("did not finish within 0.5 s") == true)
        let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try #require(Int32(text))
        // The background sleep was in the command's process group, so it is gone (or a zombie awaiting its reaper).
        #expect(processEnds(child, within: 5))
    }
}
