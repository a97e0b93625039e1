import Foundation
import Testing

/// A scripted suite of `count` cases, each calling a command tool that echoes its arguments; cases whose
/// number has a 7 in the tens place sleep a moment, so parallel children overlap.
private func echoSuite(count: Int, in folder: URL) throws -> String {
    var lines = ["suite: par", "engine: scripted", "tools:", "  - name: echo", "    description: Echoes.",
                 "    arguments: { type: object, properties: { q: { type: string } } }",
                 #"    output: { command: [sh, -c, "read x; echo \"got $x\"; case $x in *7?*) sleep 0.3;; esac"], timeoutSeconds: 5 }"#,
                 "cases:"]
    for index in 0 ..< count {
        lines += ["  - id: c\(index)", "    prompt: p\(index)", "    script:",
                  "      - toolCalls: [ { name: echo, arguments: { q: v\(index) } } ]", "      - text: t\(index)",
                  "    expect: { equals: t\(index) }"]
    }
    let path = folder.appendingPathComponent("par.yaml").path
    try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// caseID → (status, the tool outputs the model saw) for every case of a results document.
private func toolOutputs(_ results: Results) -> [String: String] {
    var outputs: [String: String] = [:]
    for item in results.cases {
        let attempts = item["attempts"] as? [[String: Any]] ?? []
        let transcript = (attempts.first?["transcript"] as? [String: Any])?["transcript"] as? [String: Any]
        let entries = transcript?["entries"] as? [[String: Any]] ?? []
        let texts = entries.filter { $0["role"] as? String == "tool" }
            .flatMap { ($0["contents"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
        outputs[item["caseID"] as? String ?? ""] = "\(item["status"] as? String ?? "") \(texts)"
    }
    return outputs
}

@Test func commandToolResultsDoNotDependOnJobs() throws {
    let folder = try temporaryFolder()
    let count = 160
    let suite = try echoSuite(count: count, in: folder)
    var started = Date()
    let (serial, one) = try runSuite([suite, "-j", "1"], in: folder)
    print("-j 1: \(Date().timeIntervalSince(started)) s")
    let parallelFolder = try temporaryFolder()
    started = Date()
    let (parallel, eight) = try runSuite([suite, "-j", "8"], in: parallelFolder)
    print("-j 8: \(Date().timeIntervalSince(started)) s")
    #expect(serial.status == 0 && parallel.status == 0, "\(serial.stderr)\(parallel.stdout)\(parallel.stderr)")
    let a = toolOutputs(try #require(one)), b = toolOutputs(try #require(eight))
    #expect(a.count == count)
    #expect(a == b)
    for index in 0 ..< count {
        #expect(b["c\(index)"] == #"passed ["got {\"q\":\"v\#(index)\"}"]"#)
    }
}

@Test func secretsNeverReachAnyOutputAndBidiControlsShowAsEscapes() throws {
    let folder = try temporaryFolder()
    let canary = "sk-canary-" + UUID().uuidString.prefix(8)
    let named = "plain-" + UUID().uuidString.prefix(6)
    let tool = #"printf 'key=%s named=%s \\342\\200\\256gnp.exe\n' \"$FAKE_API_KEY\" \"$CANARY_PLAIN\"; env; head -c 3000000 /dev/zero | tr '\\0' a"#
    let evaluator = #"cat >/dev/null; printf '{\"value\":\"failing\",\"rationale\":\"saw [%s] \\342\\200\\256cba\"}' \"$FAKE_API_KEY\""#
    let suite = """
    suite: canary
    engine: scripted
    environment: { pass: [FAKE_API_KEY, CANARY_PLAIN] }
    secrets: [CANARY_PLAIN]
    toolOutputLimit: 4096
    tools:
      - name: leak
        description: Prints what it knows.
        arguments: { type: object, properties: { q: { type: string } } }
        output: { command: [sh, -c, "\(tool)"], timeoutSeconds: 30 }
    cases:
      - id: a
        prompt: one
        script:
          - toolCalls: [ { name: leak, arguments: { q: x } } ]
          - text: one
        expect:
          - equals: one
          - command: [sh, -c, "\(evaluator)"]
    """
    let path = folder.appendingPathComponent("canary.yaml").path
    try Data(suite.utf8).write(to: URL(fileURLWithPath: path))
    // The same evaluator in a suite without an environment key: it must not even see the variable.
    let minimal = folder.appendingPathComponent("minimal.yaml").path
    try Data("""
    suite: minimal
    engine: scripted
    cases:
      - id: m
        prompt: one
        script: [ { text: one } ]
        expect: { command: [sh, -c, "\(evaluator)"] }
    """.utf8).write(to: URL(fileURLWithPath: minimal))
    let out = folder.appendingPathComponent("out")
    let started = Date()
    let run = try runFMEval(["run", path, minimal, "-o", out.path, "--junit", out.appendingPathComponent("junit.xml").path,
                             "--html", out.appendingPathComponent("report.html").path],
                            environment: ["FAKE_API_KEY": canary, "CANARY_PLAIN": named, "CI": "true"])
    print("canary run: \(Date().timeIntervalSince(started)) s")
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    var texts = ["stdout": run.stdout, "stderr": run.stderr]
    // Every file, the binary run history included (SQLite keeps text as its bytes), read leniently.
    for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
        texts[name] = String(decoding: try Data(contentsOf: out.appendingPathComponent(name)), as: UTF8.self)
    }
    #expect(texts.keys.contains("results.json") && texts.keys.contains("junit.xml") && texts.keys.contains("report.html"))
    #expect(texts.keys.contains("history.sqlite"))
    for (name, text) in texts {
        #expect(!text.contains(canary) && !text.contains(named), "a secret reached \(name)")
    }
    let results = try #require(texts["results.json"])
    #expect(results.contains("key=[redacted FAKE_API_KEY] named=[redacted CANARY_PLAIN]"))
    #expect(results.contains("saw [[redacted FAKE_API_KEY]]"))
    #expect(results.contains("saw []"), "the minimal suite's evaluator must not get FAKE_API_KEY")
    #expect(results.contains("bytes kept; raise toolOutputLimit in the suite to keep more]"))
    #expect(results.utf8.count < 200_000, "3 MB of tool output is cut to 4 KiB: \(results.utf8.count) bytes")
    for name in ["stdout", "junit.xml", "report.html"] {
        let text = try #require(texts[name])
        #expect(!text.unicodeScalars.contains("\u{202E}"), "a raw U+202E reached \(name)")
        #expect(text.contains("[U+202E]"), "\(name) shows no escaped U+202E")
    }
}

@Test func environmentKeysAreValidatedWithLocations() throws {
    let folder = try temporaryFolder()
    try Data("""
    suite: env
    engine: scripted
    environment:
      pass: [GOOD, BAD-NAME]
      set: { X: 1, 9Y: z, Z: [1] }
      keep: [A]
    secrets: [OK, "no way"]
    toolOutputLimit: 0
    cases:
      - id: a
        prompt: one
        script: [ { text: one } ]
    """.utf8).write(to: folder.appendingPathComponent("env.yaml"))
    let result = try runFMEval(["validate", folder.path])
    #expect(result.status == 2)
    for message in ["env.yaml:4:16: error: environment.pass entry 'BAD-NAME' is not a variable name",
                    "env.yaml:5:16: error: environment.set name '9Y' is not a variable name",
                    "env.yaml:5:26: error: environment.set.Z must be text",
                    "env.yaml:6:3: error: unknown key 'keep'",
                    "env.yaml:7:15: error: secrets entry 'no way' is not a variable name",
                    "env.yaml:8:18: error: toolOutputLimit (bytes of tool output kept) must be at least 1"] {
        #expect(result.stderr.contains(message), "missing: \(message)\n\(result.stderr)")
    }
}
