import Foundation
import Testing

/// The forum-bug library's suites on context windows, structured output, tool calls and the error
/// taxonomy (suites/forum), run as written on their engines (embedded, or scripted where only Apple's
/// model shows the behaviour): every reproduced bug is a known issue, every control case passes, and the
/// run exits 0.
@Suite struct ForumWindowSchemaErrorCLITests {
    /// The suite files these tests run.
    static let suites = [
        "context-overflow-tool-outputs", "context-size-differs-by-device", "token-cap-truncates-structure",
        "nullable-format-length-guides", "refusal-as-guardrail-violation", "parallel-tool-calls-never-made",
        "guardrail-false-positive",
    ].map { "suites/forum/\($0).yaml" }

    /// The cases (`suite/case@variant`) whose reported bug reproduces.
    static let reproduced = [
        "context-overflow-tool-outputs/three-pages",
        "context-size-differs-by-device/four-pages@core-27",
        "token-cap-truncates-structure/espresso-machine@grammar", "token-cap-truncates-structure/espresso-machine@prompt",
        "nullable-format-length-guides/nullable-middle-name@grammar", "nullable-format-length-guides/nullable-middle-name@prompt",
        "nullable-format-length-guides/format-date-unenforced@grammar", "nullable-format-length-guides/format-date-unenforced@prompt",
        "nullable-format-length-guides/format-date-as-pattern@prompt", "nullable-format-length-guides/booking-code-length@prompt",
        "refusal-as-guardrail-violation/live-score", "refusal-as-guardrail-violation/benign-rules-question",
        "parallel-tool-calls-never-made/vienna-berlin@allowed",
        "guardrail-false-positive/stock-price-lookup",
    ]

    /// The `reproduce` cases (four seeds or wordings) whose bug reproduces on every attempt.
    static let reproducedFourTimes = [
        "context-overflow-tool-outputs/three-pages", "token-cap-truncates-structure/espresso-machine@grammar",
        "token-cap-truncates-structure/espresso-machine@prompt", "nullable-format-length-guides/nullable-middle-name@grammar",
        "nullable-format-length-guides/nullable-middle-name@prompt", "nullable-format-length-guides/format-date-unenforced@prompt",
        "nullable-format-length-guides/booking-code-length@prompt", "parallel-tool-calls-never-made/vienna-berlin@allowed",
    ]

    /// The cases that show the correct behaviour: a device window, a cap or a channel under which the bug
    /// does not happen.
    static let controls = [
        "context-size-differs-by-device/four-pages@core-advanced-27", "token-cap-truncates-structure/roomy-cap@grammar",
        "nullable-format-length-guides/format-date-as-pattern@grammar", "nullable-format-length-guides/booking-code-length@grammar",
        "parallel-tool-calls-never-made/vienna-berlin@required",
    ]

    /// One run (the suites take a while on the embedded engine): statuses, then the errors that reproduce.
    @Test func reproducedBugsAreKnownIssuesAndTheRunExitsZero() throws {
        let folder = try temporaryFolder()
        let (run, results) = try runSuite(Self.suites, in: folder)
        #expect(run.status == 0, "reproduced bugs are known issues, not failures:\n\(run.stdout)\(run.stderr)")
        let document = try #require(results)
        let statuses = Dictionary(uniqueKeysWithValues: document.cases.map { ($0["id"] as? String ?? "", $0["status"] as? String ?? "") })
        #expect(Set(statuses.keys) == Set(Self.reproduced + Self.controls), "every case is listed here as reproduced or control")
        for id in Self.reproduced {
            #expect(statuses[id] == "knownIssue", "\(id) reproduces its bug: \(statuses[id] ?? "missing")")
        }
        for id in Self.controls {
            #expect(statuses[id] == "passed", "\(id) shows the correct behaviour: \(statuses[id] ?? "missing")")
        }
        func found(_ id: String) throws -> [String: Any] {
            try #require(document.cases.first { $0["id"] as? String == id }, "no case \(id)")
        }
        for id in Self.reproducedFourTimes {
            let reproduction = try #require(try found(id)["reproduction"] as? [String: Any], "\(id) has a reproduction rate")
            #expect(reproduction["trials"] as? Int == 4 && reproduction["reproduced"] as? Int == 4, "\(id): \(reproduction)")
        }
        let sometimes = try #require(try found("nullable-format-length-guides/format-date-unenforced@grammar")["reproduction"] as? [String: Any])
        #expect((sometimes["reproduced"] as? Int ?? 0) >= 1, "some seeds write the date in another format: \(sometimes)")
        for id in ["parallel-tool-calls-never-made/vienna-berlin@required", "nullable-format-length-guides/booking-code-length@grammar"] {
            let control = try #require(try found(id)["reproduction"] as? [String: Any])
            #expect(control["trials"] as? Int == 4 && control["reproduced"] as? Int == 0, "\(id) holds on every attempt: \(control)")
        }
        func error(_ id: String) throws -> [String: Any] {
            let found = try found(id)
            let attempts = try #require(found["attempts"] as? [[String: Any]])
            return try #require(attempts.first?["error"] as? [String: Any], "\(id) ended without an error")
        }
        let overflow = try error("context-overflow-tool-outputs/three-pages")
        #expect(overflow["caseName"] as? String == "contextSizeExceeded")
        #expect((overflow["message"] as? String)?.contains("but contextSize is 4096") == true, "\(overflow)")
        #expect(try error("context-size-differs-by-device/four-pages@core-27")["caseName"] as? String == "contextSizeExceeded")
        #expect(try error("context-size-differs-by-device/four-pages@core-advanced-27")["caseName"] as? String == "toolCallLimitExceeded")
        #expect(try error("token-cap-truncates-structure/espresso-machine@grammar")["caseName"] as? String == "parsingError")
        #expect(try error("refusal-as-guardrail-violation/live-score")["caseName"] as? String == "guardrailViolation")
    }
}
