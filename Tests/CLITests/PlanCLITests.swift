import Foundation
import Testing

/// `fmeval plan`: the cases × repeats each suite needs to detect a difference (docs/reports.md, "Power planning").
@Suite struct PlanCLITests {
    /// `fmeval plan suites` from a folder without a run history (the package root may hold one from a
    /// quickstart run): every rate is assumed.
    @Test func planOfTheExampleSuitesPrintsATable() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runFMEval(["plan", packageRoot.appendingPathComponent("suites").path], directory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Detecting a difference of 5.0% with power 0.8 (two-sided, 5% significance):")
        #expect(lines.count > 2, "\(result.stdout)")
        let header = lines[1].split(separator: " ").map(String.init)
        #expect(header == ["suite", "test", "cases", "repeats", "measured", "needed", "cases", "needed", "verdict"])
        let sentiment = try #require(lines.first { $0.hasPrefix("sentiment@") && $0.contains(" gate ") })
        #expect(sentiment.contains("unknown (50.0% assumed)") && sentiment.contains("783 trials"), "\(sentiment)")
        #expect(sentiment.contains("underpowered: needs about"), "\(sentiment)")
        #expect(lines.contains { $0.hasPrefix("sentiment ") && $0.contains("A/B ") && $0.contains("312 pairs") })
        #expect(lines.last
                == "no run history (reports/history.sqlite): rates assumed; record runs or give --history FILE")
    }

    /// With a history, the rates are the newest run's: each gate's pass rate and the A/B pair's discordance
    /// (variant b cuts the three long answers short, so 3 of 10 cases disagree).
    @Test func planReadsTheMeasuredRatesFromTheHistory() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "suite: ab\nengine: scripted\n"
            + "variants: [ { name: a }, { name: b, options: { maximumResponseTokens: 3 } } ]\ncases:\n"
        for index in 0..<10 {
            let answer = (index < 3 ? String(repeating: "word ", count: 30) : "") + "done"
            text += "  - { id: c\(index), prompt: p, script: [ { text: '\(answer)' } ], expect: { contains: done } }\n"
        }
        try text.write(to: folder.appendingPathComponent("ab.yaml"), atomically: true, encoding: .utf8)
        let run = try runFMEval(["run", "ab.yaml"], directory: folder)
        #expect(run.status == 1, "three cases fail under b: \(run.stdout)\(run.stderr)")
        let plan = try runFMEval(["plan", "ab.yaml", "--detect", "30%"], directory: folder)
        #expect(plan.status == 0, "\(plan.stderr)")
        let lines = plan.stdout.split(separator: "\n").map(String.init)
        let gate = try #require(lines.first { $0.hasPrefix("ab@b ") })
        #expect(gate.contains("70.0% (run #1)") && gate.contains("20 trials"), "\(plan.stdout)")
        #expect(gate.hasSuffix("underpowered: needs about 20 cases; you have 10"), "\(plan.stdout)")
        #expect(lines.first { $0.hasPrefix("ab@a ") }?.hasSuffix("enough") == true, "\(plan.stdout)")
        let ab = try #require(lines.first { $0.hasPrefix("ab ") })
        #expect(ab.contains("A/B a vs b") && ab.contains("30.0% discordant (run #1)") && ab.contains("24 pairs"),
                "\(plan.stdout)")
        #expect(plan.stdout.contains("measured rates: the newest of the last 30 runs in reports/history.sqlite"))

        let json = try runFMEval(["plan", "ab.yaml", "--json"], directory: folder)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["test"] as? String } == ["gate", "gate", "ab"], "\(json.stdout)")
        #expect(rows[1]["measured"] as? Double == 0.7 && rows[1]["measuredRun"] as? Int == 1)
        #expect(rows[2]["measured"] as? Double == 0.3 && object["detect"] as? Double == 0.05)
    }

    @Test func suiteErrorsAndMissingPathsAreInvalidInput() throws {
        let result = try runFMEval(["plan", "no/such/dir"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.contains("no/such/dir:1:1: error: no such file or directory"), "\(result.stderr)")
        #expect(result.stderr.contains("fmeval: error: plan: the suites have 1 error(s); fix them"), "\(result.stderr)")
    }

    @Test(arguments: [
        (["--detect", "0"], "plan: --detect expects a difference above 0 and below 100%, as 5% or 0.05, got '0'"),
        (["--detect", "100%"], "--detect expects a difference above 0 and below 100%, as 5% or 0.05, got '100%'"),
        (["--detect", "five"], "--detect expects a difference above 0 and below 100%, as 5% or 0.05, got 'five'"),
        (["--detect", "5"], "--detect expects a difference above 0 and below 100%, as 5% or 0.05, got '5'"),
        (["--power", "1"], "plan: --power expects a probability above 0 and below 1, as 0.8, got '1'"),
        (["--power", "0"], "plan: --power expects a probability above 0 and below 1, as 0.8, got '0'"),
        (["--history", "no/such.sqlite"], "history no/such.sqlite: no such file"),
    ])
    func badFlagsAreInvalidInput(flags: [String], message: String) throws {
        let result = try runFMEval(["plan", "suites/sentiment.yaml"] + flags)
        #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
