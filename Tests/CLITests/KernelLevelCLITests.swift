import Foundation
import Testing

/// `FMEVAL_KERNEL_LEVEL`, which forces the C kernels' level, as the binary reads it, and the level in
/// the results fingerprint.
@Suite struct KernelLevelCLITests {
    /// A level this x86-64 or arm64 CPU can never run, and the message naming the ones it can.
    #if arch(arm64)
    static let foreign = "avx2"
    #else
    static let foreign = "neon"
    #endif

    @Test func anUnknownOrUnavailableLevelIsRefusedNamingTheVariableAndTheAvailableLevels() throws {
        for value in ["sse9", Self.foreign] {
            for command in [["bench", "--repeat", "1"], ["respond", "--max-tokens", "1", "hi"], ["run", "suites/city-tools.yaml"]] {
                let run = try runFMEval(command, environment: ["FMEVAL_KERNEL_LEVEL": value])
                #expect(run.status == 2, "\(command): \(run.stderr)")
                #expect(run.stderr.contains("FMEVAL_KERNEL_LEVEL=\(value) is not a kernel level this CPU runs; set it to one of portable"),
                        "\(command): \(run.stderr)")
                #expect(run.stderr.contains(", or unset it"), "\(command): \(run.stderr)")
            }
        }
    }

    /// Two runs of one suite that differ only in the kernel level: the same answers, and fingerprints
    /// that name each run's level, which `fmeval compare` points out.
    @Test func theFingerprintRecordsTheLevelAndCompareNotesADifference() throws {
        let folder = try temporaryFolder()
        let suite = folder.appendingPathComponent("one.yaml").path
        try """
        suite: one
        engine: embedded
        options: { sampling: greedy, maximumResponseTokens: 6 }
        cases:
          - id: capital
            prompt: What is the capital of France?
            expect: { contains: Paris }
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        var outputs: [(level: String, path: String)] = []
        for level in ["portable", "detected"] {
            let path = folder.appendingPathComponent("\(level).json").path
            let environment = level == "portable" ? ["FMEVAL_KERNEL_LEVEL": "portable"] : [:]
            let run = try runFMEval(["run", suite, "--json", path], environment: environment.merging(["CI": "true"]) { $1 })
            #expect(run.status == 0 || run.status == 1, "\(run.stdout)\(run.stderr)")
            outputs.append((level, path))
        }
        let documents = try outputs.map { try Results(path: $0.path) }
        let levels = documents.map { document in
            ((document.document["run"] as? [String: Any])?["fingerprint"] as? [String: Any])?["engineDetails"] as? [String: String]
        }
        #expect(levels[0] == ["kernelLevel": "portable"])
        let detected = try #require(levels[1]?["kernelLevel"])
        #expect(["avx2", "avx512-vnni", "neon", "neon-dotprod", "portable"].contains(detected))
        let answers = try documents.map { try $0.attempts("capital").first?["text"] as? String }
        #expect(answers[0] != nil && answers[0] == answers[1], "every level gives the same answer: \(answers)")
        let compare = try runFMEval(["compare", outputs[0].path, outputs[1].path])
        if detected != "portable" {
            #expect(compare.stdout.contains("note: the runs' engines were set up differently (kernelLevel portable vs \(detected))"),
                    "\(compare.stdout)\(compare.stderr)")
        }
    }
}
