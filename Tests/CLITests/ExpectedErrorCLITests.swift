import Foundation
import Testing

/// `expect: {error: {}}` is met by the model's errors only: an engine that cannot be reached is an
/// infrastructure error (exit 3) and keeps its retries, never a passing case. Before, this run passed (exit 0).
@Test func anyErrorIsNotMetByAnUnreachableEngine() throws {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("errors.yaml").path
    try "suite: errors\ncases:\n  - id: any\n    prompt: Hi\n    expect: { error: {} }\n"
        .write(toFile: path, atomically: true, encoding: .utf8)
    let (run, results) = try runSuite([path, "--engine", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                                       "--no-history"], in: folder)
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    let attempt = try #require(results).attempts("any")[0]
    #expect(attempt["status"] as? String == "error")
    let error = try #require(attempt["error"] as? [String: Any])
    #expect(error["caseName"] as? String == "connectionRefused" && error["expected"] as? Bool == false, "\(error)")
    #expect((error["message"] as? String)?.contains("gave up after 3 tries") == true, "an unnamed expected error keeps the retries")
}
