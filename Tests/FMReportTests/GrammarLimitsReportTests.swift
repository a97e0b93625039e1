import FMCore
import Foundation
import Testing
@testable import FMReport
@testable import FMResults

/// Loop-guard cuts on an attempt: written to and read back from results, listed in the HTML case details,
/// and absent from attempts (and older files) that have none.
@Suite struct GrammarLimitsReportTests {
    static func run(with cuts: [GrammarLimitCut]?) -> RunResult {
        var run = sampleRun()
        run.cases[0].attempts[0].grammarLimits = cuts
        return run
    }

    @Test func cutsRoundTripThroughTheResultsFile() throws {
        let cuts = [GrammarLimitCut(path: "/fruits", guard: .maximumUnboundedItems, limit: 3),
                    GrammarLimitCut(path: "/city", guard: .maximumStringBytes, limit: 200, tool: "getCityInfo")]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-limits-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("results.json").path
        try ResultsFile.write(Self.run(with: cuts), to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""grammarLimits":[{"guard":"maximumUnboundedItems","limit":3,"path":"/fruits"}"#)
                || text.contains(#""grammarLimits":[{"path":"/fruits","guard":"maximumUnboundedItems","limit":3}"#), "\(text)")
        let loaded = try ResultsFile.load(path)
        #expect(loaded.cases[0].attempts[0].grammarLimits == cuts)
        #expect(loaded.cases[1].attempts[0].grammarLimits == nil)
        #expect(text.components(separatedBy: "grammarLimits").count == 2, "attempts without cuts carry no key")
    }

    @Test func htmlListsTheCutsUnderTheAttempt() {
        let cuts = [GrammarLimitCut(path: "/city", guard: .maximumStringBytes, limit: 200, tool: "get<City>")]
        let html = HTMLReport.render(Self.run(with: cuts))
        #expect(html.contains("Grammar loop guards cut the output (1)"))
        #expect(html.contains("<td class=\"mono\">/city</td><td class=\"mono\">maximumStringBytes</td><td>200</td><td class=\"mono\">get&lt;City&gt;</td>"))
        #expect(!HTMLReport.render(Self.run(with: nil)).contains("Grammar loop guards"))
    }
}
