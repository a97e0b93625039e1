import Foundation
import Testing

/// The `contamination` option on the embedded model (greedy): a birthday wish asked after a French
/// translation, in one reused session, comes in French, so its verdict depends on the history and the
/// run fails; a grammar-enforced label asked after both does not move.
@Test func aVerdictThatDependsOnTheSessionsHistoryFailsTheRun() throws {
    let folder = try temporaryFolder()
    let junit = folder.appendingPathComponent("junit.xml").path
    let (run, results) = try runSuite([fixture("contamination.yaml"), "--junit", junit], in: folder)
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let document = try #require(results)
    #expect(document.statuses == ["translate": "passed", "birthday": "passed", "label": "passed"],
            "the fresh attempts pass")
    #expect(try document.case("translate")["contamination"] == nil)
    let swayed = try #require(try document.case("birthday")["contamination"] as? [String: Any])
    #expect(swayed["after"] as? [String] == ["contamination/translate"])
    #expect(swayed["dependsOnHistory"] as? Bool == true && swayed["statuses"] as? [String] == ["failed"])
    let detail = swayed["detail"] as? String ?? ""
    #expect(detail.hasPrefix("passed in a fresh session, failed after 1 earlier case (contamination/translate); "
        + "the reused session failed regex: "), "\(detail)")
    let steady = try #require(try document.case("label")["contamination"] as? [String: Any])
    #expect(steady["after"] as? [String] == ["contamination/translate", "contamination/birthday"])
    #expect(steady["dependsOnHistory"] as? Bool == false && steady["statuses"] as? [String] == ["passed"])
    #expect(document.summary["historyDependent"] as? Int == 1)
    #expect(run.stdout.contains("  HISTORY contamination/birthday — history-dependent: passed in a fresh session"))
    #expect(run.stdout.contains("1 history-dependent"))
    #expect(run.stdout.hasSuffix("Gate failed: 1 case passed but disagreed with a rerun (nondeterministic or "
        + "history-dependent) (exit 1).\n"), "\(run.stdout)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("type=\"historyDependent\"") && xml.contains("failures=\"1\""))
    let validate = try runFMEval(["validate", "--json", fixture("contamination.yaml")])
    #expect(validate.status == 0 && validate.stdout.contains("\"priorPrompts\""), "\(validate.stderr)")
}
