import Foundation
import Testing
import TestSupport

/// A suite on the embedded engine: `steady` passes on any answer; `edited` passes until its expectation
/// is `edit`.
private func driftSuite(edit: String?) -> String {
    """
    suite: drift
    options: { maximumResponseTokens: 4 }
    cases:
      - id: steady
        prompt: Say hello.
        expect: { regex: "[\\\\s\\\\S]*" }
      - id: edited
        prompt: Say hi.
        expect: \(edit.map { "{ equals: \"\($0)\" }" } ?? "{ regex: \"[\\\\s\\\\S]*\" }")
    """
}

/// The default model with one byte of its `general.name` changed: the same weights, another file.
private func editedModel(in folder: URL) throws -> URL {
    let fetch = try runFMEval(["model", "fetch"])
    let original = URL(fileURLWithPath: fetch.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    var bytes = [UInt8](try Data(contentsOf: original))
    let key = Array("general.name".utf8)
    let start = try #require((0..<(1 << 20)).first { bytes[$0..<($0 + key.count)].elementsEqual(key) })
    let valueEnd = start + key.count + 4 + 8 + Int(bytes[start + key.count + 4])
    bytes[valueEnd - 1] ^= 0x01
    let copy = folder.appendingPathComponent(original.lastPathComponent)
    try Data(bytes).write(to: copy)
    return copy
}

/// Three runs recorded in one history: the second with one case's expectation changed (a regression the
/// case caused), the third also on an edited copy of the model file. `--regressions-from` gates by cause;
/// `history drift` attributes each flip.
@Test func driftAttributesAFlipToTheModelFileAndTheCaseDefinition() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = folder.appendingPathComponent("drift.yaml")
    let history = folder.appendingPathComponent("history.sqlite").path
    func run(_ extra: [String]) throws -> CLIResult {
        try runFMEval(["run", suite.path, "--out", folder.appendingPathComponent("out").path, "--history", history]
                      + extra, environment: ["CI": "true"])
    }
    try driftSuite(edit: nil).write(to: suite, atomically: true, encoding: .utf8)
    let first = try run([])
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    try driftSuite(edit: "impossible").write(to: suite, atomically: true, encoding: .utf8)
    let gate = ["--baseline", "history:1", "--fail-on-regression"]
    let fromModel = try run(gate + ["--regressions-from", "model"])
    #expect(fromModel.status == 0, "the case's own edit is not a model regression: \(fromModel.stdout)")
    #expect(fromModel.stdout.contains("drift/edited"), "it is still shown: \(fromModel.stdout)")
    let fromCase = try run(gate + ["--regressions-from", "case", "--no-history"])
    #expect(fromCase.status == 1, "\(fromCase.stdout)\(fromCase.stderr)")
    let model = try editedModel(in: folder)
    let third = try run(["--model", model.path])
    #expect(third.status == 1, "\(third.stdout)\(third.stderr)")
    let lastTwo = try runFMEval(["history", "drift", "--history", history])
    #expect(lastTwo.status == 0, "\(lastTwo.stderr)")
    let lines = lastTwo.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "Drift from run #2 to run #3:")
    #expect(lines.count > 2 && lines[1].contains(" → ") && lines[1].contains("sha256 "), "the model line: \(lines)")
    #expect(lines.contains("  0 cases flipped: 0 model, 0 case, 0 both, 0 neither"), "\(lastTwo.stdout)")
    let drift = try runFMEval(["history", "drift", "1", "3", "--history", history])
    #expect(drift.stdout.contains("  1 case flipped: 0 model, 0 case, 1 both, 0 neither"), "\(drift.stdout)")
    #expect(drift.stdout.contains("the model and the case changed (1):\n  regression  drift/edited  (passed → failed)"),
            "\(drift.stdout)")
    let bad = try runFMEval(["run", suite.path, "--regressions-from", "weather"])
    #expect(bad.status == 2 && bad.stderr.contains("--regressions-from takes one of any, model, case, not 'weather'"),
            "\(bad.stderr)")
}
