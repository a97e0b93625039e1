import Foundation
import Testing

private let starterFiles = ["suites/example.yaml", "suites/tools.yaml", "datasets/example.jsonl", ".github/workflows/fmeval.yml"]

@Test func initWritesAStarterThatValidatesAndPassesOnTheEmbeddedModel() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = try runFMEval(["init", "project"], directory: folder)
    #expect(written.status == 0, "\(written.stderr)")
    for file in starterFiles {
        #expect(written.stdout.contains("wrote project/\(file)"), "\(written.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("project/\(file)").path), "\(file)")
    }
    #expect(written.stdout.contains("fmeval validate project/suites") && written.stdout.contains("fmeval run project/suites"))
    let project = folder.appendingPathComponent("project")
    let validate = try runFMEval(["validate", "suites"], directory: project)
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    #expect(validate.stdout.contains("2 suites, 5 cases, 0 errors"), "\(validate.stdout)")
    let run = try runFMEval(["run", "suites", "--html", "reports/report.html"], environment: ["CI": "true"], directory: project)
    #expect(run.status == 0, "the starter suites pass on the embedded model: \(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("5 cases, 5 passed"), "\(run.stdout)")
    #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("reports/report.html").path))
}

@Test func initWritesAStarterSuiteThatShowsEveryKey() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runFMEval(["init"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("wrote suites/example.yaml") && result.stdout.contains("fmeval validate suites"))
    let suite = try String(contentsOf: folder.appendingPathComponent("suites/example.yaml"), encoding: .utf8)
    for key in ["suite:", "engine:", "options:", "instructions:", "generating:", "defaults:", "dataset:", "cases:", "expect:"] {
        #expect(suite.contains("\n" + key) || suite.contains(" " + key), "the starter suite does not show \(key)")
    }
}

@Test func initNeverOverwritesWithoutForce() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("suites"), withIntermediateDirectories: true)
    try Data("suite: mine\n".utf8).write(to: folder.appendingPathComponent("suites/example.yaml"))
    let refused = try runFMEval(["init", folder.path], directory: folder)
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("\(folder.path)/suites/example.yaml already exists; nothing was written"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--force"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("datasets/example.jsonl").path), "nothing was written")
    #expect(try String(contentsOf: folder.appendingPathComponent("suites/example.yaml"), encoding: .utf8) == "suite: mine\n")
    let forced = try runFMEval(["init", "--force"], directory: folder)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("suites/example.yaml"), encoding: .utf8).contains("suite: example"))
    let file = folder.appendingPathComponent("plain-file")
    try Data().write(to: file)
    let notFolder = try runFMEval(["init", "plain-file"], directory: folder)
    #expect(notFolder.status == 2 && notFolder.stderr.contains("'plain-file' is a file"), "\(notFolder.stderr)")
    let twoFolders = try runFMEval(["init", "a", "b"], directory: folder)
    #expect(twoFolders.status == 2 && twoFolders.stderr.contains("takes one folder"))
}

@Test func schemaSuitePrintsTheJSONSchema() throws {
    let result = try runFMEval(["schema", "suite"])
    #expect(result.status == 0, "\(result.stderr)")
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    #expect(schema["additionalProperties"] as? Bool == false)
    let extra = try runFMEval(["schema", "suite", "out.json"])
    #expect(extra.status == 2 && extra.stderr.contains("fmeval schema suite > suite.schema.json"))
}

@Test func initWritesAToolSuiteShowingTheRequiredLoopIdiom() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try runFMEval(["init"], directory: folder).status == 0)
    let suite = try String(contentsOf: folder.appendingPathComponent("suites/tools.yaml"), encoding: .utf8)
    for idiom in ["toolCallingMode: required", "maxToolCalls: 2", "- error: toolCallLimitExceeded", "- toolCalls:"] {
        #expect(suite.contains(idiom), "suites/tools.yaml does not show \(idiom)")
    }
    let validate = try runFMEval(["validate", "suites/tools.yaml"], directory: folder)
    #expect(validate.status == 0 && validate.stdout.contains("1 suite, 1 case, 0 errors"), "\(validate.stdout)")
}
