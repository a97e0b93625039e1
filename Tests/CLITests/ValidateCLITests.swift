import Foundation
import Testing

@Test func validateExampleSuitesExitsZero() throws {
    let result = try runFMEval(["validate", "suites"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(" suites, "))
    #expect(result.stdout.hasSuffix(", 0 errors\n"))
}

@Test func validateReportsEveryErrorWithLocationAndExitsTwo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-validate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let suite = "suite: bad\nengin: embedded\ncases:\n  - id: a\n    promt: hi\n"
    try Data(suite.utf8).write(to: folder.appendingPathComponent("bad.yaml"))
    try Data("a: [1\n".utf8).write(to: folder.appendingPathComponent("broken.yml"))
    let result = try runFMEval(["validate", folder.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.yaml:2:1: error: unknown key 'engin'; did you mean 'engine'?"))
    #expect(result.stderr.contains("bad.yaml:5:5: error: unknown key 'promt'; did you mean 'prompt'?"))
    #expect(result.stderr.contains("broken.yml:1:4: error: unterminated flow sequence"))
    #expect(result.stdout.contains("2 suites, 0 cases, 4 errors"), "\(result.stdout)\n\(result.stderr)")
}

@Test func validateJSONPrintsTheExpandedCases() throws {
    let result = try runFMEval(["validate", "--json", "suites/city-tools.yaml"])
    #expect(result.status == 0, "\(result.stderr)")
    let cases = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(cases.map { $0["id"] as? String } == ["city-tools/paris", "city-tools/london-prefix", "city-tools/beijing"])
    let beijing = cases[2]
    #expect(beijing["repeat"] as? Int == 5)
    #expect((beijing["settings"] as? [String: Any])?["maxToolCalls"] as? Int == 3)
    #expect((beijing["location"] as? String)?.hasPrefix("suites/city-tools.yaml:") == true)
    #expect(result.stderr.contains("1 suite, 3 cases, 0 errors"))
}

@Test func validateMissingPathIsInvalidInput() throws {
    let result = try runFMEval(["validate", "no/such/dir"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no/such/dir:1:1: error: no such file or directory"))
}

@Test func validateJSONWithErrorsPrintsNothingOnStdout() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-validate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("s.json")
    try Data(#"{"suite": "j", "cases": [{"id": "a", "prompt": "hi", "repeat": "3"}]}"#.utf8).write(to: file)
    let result = try runFMEval(["validate", "--json", file.path])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("s.json:1:64: error: repeat must be an integer, not a string"))
    #expect(result.stderr.contains("1 suite, 0 cases, 1 error"))
}

@Test func validateChecksErrorNamesAndWarnsOnTemperatureUnderGreedy() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-validate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let renamed = "suite: renamed\ncases:\n  - id: a\n    prompt: hi\n    expect: { error: exceededContextWindowSize }\n"
    try Data(renamed.utf8).write(to: folder.appendingPathComponent("renamed.yaml"))
    let bad = try runFMEval(["validate", folder.appendingPathComponent("renamed.yaml").path])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("renamed.yaml:5:22: error: error: 'exceededContextWindowSize' is the Foundation Models 26 name; "
        + "since 27 it is LanguageModelError.contextSizeExceeded: write 'contextSizeExceeded'"), "\(bad.stderr)")
    let warm = "suite: warm\noptions: { temperature: 0.7 }\ncases:\n  - id: a\n    prompt: hi\n"
    try Data(warm.utf8).write(to: folder.appendingPathComponent("warm.yaml"))
    let warned = try runFMEval(["validate", folder.appendingPathComponent("warm.yaml").path])
    #expect(warned.status == 0, "a warning does not fail validation: \(warned.stderr)")
    #expect(warned.stderr.contains("warm.yaml:2:25: warning: temperature 0.7 has no effect under greedy sampling"), "\(warned.stderr)")
    #expect(warned.stdout.contains("1 suite, 1 case, 0 errors"))
}

/// A misspelled judge engine is refused before the run (exit 2, with did-you-mean), not at run time (exit 3).
@Test func aMisspelledJudgeEngineIsRefusedAtLoad() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("judged.yaml").path
    try "suite: judged\nengine: scripted\ncases:\n  - id: a\n    prompt: hi\n    script: [ { text: ok } ]\n    expect: { judge: { engine: embeded, criteria: polite } }\n"
        .write(toFile: path, atomically: true, encoding: .utf8)
    for command in [["validate", path], ["run", path, "--no-history", "-o", folder.path]] {
        let result = try runFMEval(command)
        #expect(result.status == 2, "\(command[0]): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("judged.yaml:4:5: error: judge engine: unknown engine 'embeded'; did you mean 'embedded'?"),
                "\(command[0]): \(result.stderr)")
    }
}
