import Foundation
import Testing
import TestSupport
@testable import FMCore

/// A child environment with just a PATH.
private let plain = ["PATH": "/usr/bin:/bin"]

/// Whether process `pid` still exists (a zombie counts as gone: it no longer runs).

/// Runs `script` under `sh -c` with `request`'s other settings.
private func shell(_ script: String, stdin: Data? = nil, environment: [String: String] = plain, timeout: Double? = 10,
                   limit: Int = ChildProcess.defaultOutputLimit, redactor: SecretRedactor? = nil) throws -> ChildOutcome {
    try ChildProcess.run(ChildRequest(argv: ["sh", "-c", script], stdin: stdin, environment: environment,
                                      timeoutSeconds: timeout, outputLimit: limit, redactor: redactor))
}

@Test func aTimeoutEndsTheWholeProcessGroupWithTermThenKill() throws {
    let started = Date()
    // The shell ignores SIGTERM, so only the SIGKILL after the grace second ends it; its sleeper goes too.
    let outcome = try shell("trap '' TERM; sleep 30 & echo $!; wait", timeout: 0.3)
    print("timed-out group ended after \(Date().timeIntervalSince(started)) s")
    #expect(outcome.timedOut)
    #expect(outcome.signal == SIGKILL)
    let sleeper = try #require(pid_t(String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(processEnds(sleeper, within: 5), "the background child of a timed-out command must be gone")
}

@Test func whatAFinishedCommandLeftRunningIsEnded() throws {
    let started = Date()
    let outcome = try shell("sleep 30 & echo $!")
    print("command with a leftover child returned after \(Date().timeIntervalSince(started)) s")
    #expect(!outcome.timedOut && outcome.status == 0)
    let sleeper = try #require(pid_t(String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(processEnds(sleeper, within: 5))
}

@Test func parallelChildrenInheritNoPipesOfEachOther() throws {
    // Each child lists its open descriptors (number and target) while its siblings' pipes are open.
    let listings = LockedList()
    let group = DispatchGroup()
    for _ in 0 ..< 16 {
        group.enter()
        Thread.detachNewThread {
            let outcome = try? shell("sleep 0.2; for f in /proc/$$/fd/*; do echo \"${f##*/} $(readlink $f)\"; done")
            listings.add(outcome.map { String(decoding: $0.stdout, as: UTF8.self) } ?? "failed")
            group.leave()
        }
    }
    group.wait()
    let children = listings.items.map { listing in
        Dictionary(listing.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { first, _ in first })
    }
    #expect(children.count == 16)
    let ownPipes = Set(children.flatMap { [$0["1"], $0["2"]].compactMap { $0 } })
    #expect(ownPipes.count == 32, "each child has its own stdout and stderr pipe")
    for child in children {
        let extra = child.filter { !["0", "1", "2"].contains($0.key) && ownPipes.contains($0.value) }
        #expect(extra.isEmpty, "a child holds a sibling's pipe: \(extra)")
    }
}

@Test func outputIsCappedAndTheTotalReported() throws {
    let started = Date()
    let outcome = try shell("head -c 20000000 /dev/zero | tr '\\0' a", limit: 1000)
    print("20 MB output capped at 1000 bytes in \(Date().timeIntervalSince(started)) s")
    #expect(outcome.stdout == Data(repeating: UInt8(ascii: "a"), count: 1000))
    #expect(outcome.stdoutBytes == 20_000_000)
    #expect(outcome.stdoutTruncated && !outcome.timedOut && outcome.status == 0)
    let accents = try shell("printf 'ééé'", limit: 5)
    #expect(String(data: accents.stdout, encoding: .utf8) == "éé", "cut on a character boundary")
    #expect(accents.stdoutTruncated && accents.stdoutBytes == 6)
    let short = try shell("printf abc", limit: 5)
    #expect(!short.stdoutTruncated && short.stdout == Data("abc".utf8))
}

@Test func theChildGetsExactlyTheEnvironmentGiven() throws {
    let outcome = try ChildProcess.run(ChildRequest(argv: ["env"], environment: ["PATH": "/usr/bin:/bin", "ONLY": "this"]))
    let lines = String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n").sorted()
    #expect(lines == ["ONLY=this", "PATH=/usr/bin:/bin"])
}

@Test func stdinIsFedOrEmptyAndAChildThatStopsReadingIsNoFault() throws {
    let echoed = try shell("cat", stdin: Data("hello".utf8))
    #expect(echoed.stdout == Data("hello".utf8))
    let none = try shell("cat")
    #expect(none.stdout.isEmpty && none.status == 0)
    let ignored = try shell("exit 0", stdin: Data(count: 10_000_000))
    #expect(ignored.status == 0 && ignored.signal == nil)
}

@Test func secretsAreRedactedEvenAcrossTheCut() throws {
    let redactor = SecretRedactor(["FAKE_API_KEY": "sk-canary-123456"])
    let outcome = try shell("printf 'a sk-canary-123456 b'", redactor: redactor)
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == "a [redacted FAKE_API_KEY] b")
    let cut = try shell("printf 'xxsk-canary-123456'", limit: 8, redactor: redactor)
    #expect(!String(decoding: cut.stdout, as: UTF8.self).contains("sk-can"), "\(String(decoding: cut.stdout, as: UTF8.self))")
    #expect(cut.stdoutTruncated)
}

@Test func unknownProgramsAndFoldersAreClearStartErrors() {
    #expect(throws: ChildProcessError.self) { try ChildProcess.run(ChildRequest(argv: ["no-such-program-x"], environment: plain)) }
    do {
        _ = try ChildProcess.run(ChildRequest(argv: ["no-such-program-x"], environment: plain))
    } catch {
        #expect("\(error)".contains("cannot start no-such-program-x: not found on PATH"))
    }
    let moved = try? ChildProcess.run(ChildRequest(argv: ["pwd"], environment: plain, directory: "/tmp"))
    #expect(moved.map { String(decoding: $0.stdout, as: UTF8.self) } == "/tmp\n")
}

@Test func thePolicyBuildsAMinimalEnvironmentAndFindsSecrets() {
    let parent = ["PATH": "/bin", "HOME": "/root", "LC_ALL": "C", "OPENAI_API_KEY": "sk-long-secret", "SHORT_KEY": "abc",
                  "MY_PASSWORD_FILE": "/etc/x-long-path", "OTHER": "1", "MINE": "mine-value"]
    let policy = CommandPolicy(pass: ["OPEN*"], set: ["SET_TOKEN": "tok-12345678", "PLAIN": "p"], secrets: ["MINE"])
    #expect(policy.environment(from: parent) == ["PATH": "/bin", "HOME": "/root", "LC_ALL": "C", "OPENAI_API_KEY": "sk-long-secret",
                                                 "SET_TOKEN": "tok-12345678", "PLAIN": "p"])
    #expect(policy.redactor(parent: parent).names == ["MINE", "MY_PASSWORD_FILE", "OPENAI_API_KEY", "SET_TOKEN"])
    #expect(policy.redactor(parent: parent).redact("k=sk-long-secret m=mine-value") == "k=[redacted OPENAI_API_KEY] m=[redacted MINE]")
    #expect(CommandPolicy.isValidPattern("LC_*") && !CommandPolicy.isValidPattern("9X") && !CommandPolicy.isValidPattern("A-B"))
}

/// 200 ChildProcess children run at once, mixed with Foundation `Process` children that write to a
/// /dev/null stderr, an inherited one and pipes of their own (as the JSON Schema differential test's
/// python3 does): every ChildProcess child's output must be exactly its own, and a child without
/// stdin must read nothing. (CI once read a Foundation child's stderr line from a stdin-less `cat`.)
@Test func twoHundredConcurrentChildrenEachGetExactlyTheirOwnOutput() throws {
    let outputs = LockedList()
    let group = DispatchGroup()
    let foreign = LockedList()
    for index in 0 ..< 200 {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let script = index % 2 == 0 ? "cat" : "printf 'own-\(index)'; printf 'err-\(index)' >&2"
            guard let outcome = try? shell(script) else { return outputs.add("\(index) failed to start") }
            let out = String(decoding: outcome.stdout, as: UTF8.self), err = String(decoding: outcome.stderr, as: UTF8.self)
            let expected = index % 2 == 0 ? ("", "") : ("own-\(index)", "err-\(index)")
            if (out, err) != expected || outcome.status != 0 { outputs.add("\(index): stdout '\(out)' stderr '\(err)'") }
        }
        if index % 4 == 0 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "echo foreign-out-\(index); echo foreign-err-\(index) >&2"]
                let pipe = Pipe()
                switch index % 3 {
                case 0: process.standardError = FileHandle.nullDevice
                case 1: process.standardError = pipe
                default: process.standardError = FileHandle.nullDevice; process.standardOutput = pipe
                }
                if index % 3 != 2 { process.standardOutput = FileHandle.nullDevice }
                guard (try? process.run()) != nil else { return foreign.add("\(index) did not start") }
                let read = index % 3 == 0 ? Data() : pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                let text = String(decoding: read, as: UTF8.self)
                if index % 3 != 0 && text != "foreign-\(index % 3 == 1 ? "err" : "out")-\(index)\n" {
                    foreign.add("\(index): Foundation child read '\(text)'")
                }
            }
        }
    }
    group.wait()
    #expect(outputs.items.isEmpty, "\(outputs.items.prefix(10))")
    #expect(foreign.items.isEmpty, "\(foreign.items.prefix(10))")
}

/// A descendant that left the command's process group with setsid() and ignores SIGTERM still ends
/// when the command times out.
@Test func aSetsidDescendantThatIgnoresTermEndsWithATimedOutCommand() throws {
    let script = "setsid sh -c 'trap \"\" TERM; echo $$; exec sleep 30' & wait"
    let outcome = try ChildProcess.run(ChildRequest(argv: ["sh", "-c", script], environment: plain, timeoutSeconds: 0.5))
    #expect(outcome.timedOut)
    let text = String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let escaped = try #require(pid_t(text), "the setsid child did not report its pid: '\(text)'")
    #expect(processEnds(escaped, within: 2), "the setsid child \(escaped) outlived its timed-out command")
    if processIsRunning(escaped) { kill(escaped, SIGKILL) }
}

/// Strings gathered from parallel work.
// @unchecked Sendable: `values` is read and appended only under `lock`.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []

    func add(_ value: String) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var items: [String] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
