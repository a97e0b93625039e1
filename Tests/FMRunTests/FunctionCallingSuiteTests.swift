import Foundation
import Testing
import FMCore
import FMEngines
import FMEvaluate
import FMResults
import FMRun
import FMSuite

/// The function-calling suites in Fixtures/function-calling (BFCL's categories, in our own words), loaded and
/// run on the scripted engine: every case gets the verdict its `expect-pass` / `expect-fail` tag names.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/function-calling")

/// The results of running one fixture suite, by case id, with the verdict each case's tag asks for.
private func run(_ category: String) throws -> [(id: String, wanted: CaseStatus, result: CaseResult)] {
    let (suite, diagnostics) = SuiteLoader.load(file: fixtures.appendingPathComponent("\(category).yaml").path)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let items = try #require(suite).expanded()
    let results = try scriptedRunner().run(items)
    #expect(results.count == items.count)
    return try items.map { item in
        let result = try #require(results.first { $0.caseID == item.caseID })
        let wanted: CaseStatus = item.tags.contains("expect-pass") ? .passed : .failed
        #expect(item.tags.contains("expect-pass") != item.tags.contains("expect-fail"), "\(item.caseID) needs one verdict tag")
        return (item.caseID, wanted, result)
    }
}

/// The failing rationale of the `toolCalls` metrics of a case's first attempt.
private func rationale(_ result: CaseResult) -> String {
    (result.attempts.first?.metrics ?? []).filter { $0.name.hasPrefix("toolCalls") && $0.value == .failing }
        .compactMap(\.rationale).joined(separator: " | ")
}

@Test(arguments: ["simple", "multiple", "parallel", "irrelevance"])
func everyAlterationGetsItsVerdict(category: String) throws {
    let cases = try run(category)
    #expect(cases.contains { $0.wanted == .passed } && cases.contains { $0.wanted == .failed })
    for (id, wanted, result) in cases {
        #expect(result.status == wanted, "\(category)/\(id): \(result.status), \(rationale(result))")
    }
}

@Test func eachFailureIsForTheAlterationMade() throws {
    let simple = Dictionary(uniqueKeysWithValues: try run("simple").map { ($0.id, rationale($0.result)) })
    #expect(simple["optional-wrong"]?.contains(#"unit: "inches" is none of ["units", "cm"]"#) == true, "\(simple["optional-wrong"] ?? "")")
    #expect(simple["extra-argument"]?.contains("/precision: not an expected argument") == true, "\(simple["extra-argument"] ?? "")")
    let decimal = simple["integer-written-as-decimal"] ?? ""
    #expect(decimal.contains("/toolCalls/0/arguments/base type: /base is 10.0, written as a decimal where an integer is required"), "\(decimal)")
    #expect(!decimal.contains("allPass"), "the call itself matches: 10.0 equals 10 by value")
    #expect(simple["duplicate-call"]?.contains("unexpected call #2 triangle_area") == true)
    let parallel = Dictionary(uniqueKeysWithValues: try run("parallel").map { ($0.id, rationale($0.result)) })
    #expect(parallel["duplicate-call"]?.contains(#"unordered[1] get_weather(city: exact, unit?: oneOf, nothing else) not met"#) == true,
            "\(parallel["duplicate-call"] ?? "")")
    #expect(parallel["value-outside-the-schema"]?.contains("enum") == true, "\(parallel["value-outside-the-schema"] ?? "")")
}

@Test func decimalsAreRecordedAsTheModelWroteThem() throws {
    let simple = try run("simple")
    let decimal = try #require(simple.first { $0.id == "integer-written-as-decimal" }?.result.attempts.first)
    let call = try #require(StructuredTranscript(decimal.transcript).toolCalls.first)
    #expect(call.arguments.jsonString == #"{"base":10.0,"height":5,"unit":"cm"}"#)
    #expect(decimal.violations.map(\.keyword) == [.type])
    let file = try ContentEncoder.jsonText(decimal)
    #expect(file.contains(#"\"base\": 10.0"#), "the transcript's arguments string keeps 10.0")
    let reloaded = try ContentDecoder.decode(AttemptResult.self, from: try GeneratedContent(json: file))
    #expect(StructuredTranscript(reloaded.transcript).toolCalls.first?.arguments["base"]?.writtenAsDecimal == true)
}
