import Foundation
import FMResults
import Testing
@testable import FMReport

/// The sample run with one case fixed and one broken, as the baseline the sample run is compared to.
private func sampleBaseline() -> RunResult {
    var base = sampleRun()
    base.cases[0] = sampleCase("city-info", "paris", [.failed])
    base.cases[1] = sampleCase("city-info", "beijing", [.passed])
    return base
}

/// A suite run with two variants, so that it has an A/B comparison of its own.
private func variantRun() -> RunResult {
    let cases = (0..<3).flatMap { index in
        [sampleCase("sentiment", "c\(index)", variant: "plain", [.passed]),
         sampleCase("sentiment", "c\(index)", variant: "terse", [index == 0 ? .failed : .passed])]
    }
    return RunResult(run: sampleInfo(variants: ["plain", "terse"]), cases: cases)
}

/// The variant run as `run`, `report` and `merge` give it to the formats.
private func variantInput() -> ReportInput {
    ReportInput(results: variantRun(), comparisons: ABComparison.variants(of: variantRun()))
}

/// The sample run as `run --baseline` / `compare BASE CANDIDATE` give it to the formats.
private func comparedInput() -> ReportInput {
    let base = sampleBaseline(), current = sampleRun()
    return ReportInput(results: current, baseline: BaselineComparison(baseline: base, current: current),
                       comparisons: [ABComparison.files(base: base, baseName: "base.json", candidate: current, candidateName: "now.json")])
}

@Test func everyFormatIsRegisteredOnceUnderAFlagName() throws {
    let names = ReportFormats.all.map(\.name)
    #expect(Set(names).count == names.count, "a name registered twice: \(names)")
    for format in [ReportFormat.junit, .html, .comparisonJSON] {
        #expect(names.filter { $0 == format.name }.count == 1, "\(format.name) is registered once")
    }
    for format in ReportFormats.all {
        #expect(format.name.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil, "\(format.name) is a flag name")
        #expect(format.flag == "--" + format.name)
        #expect(!format.help.isEmpty && !format.help.contains("\n"), "\(format.name) has one help line")
        #expect(ReportFormats.named(format.name)?.flag == format.flag)
    }
    #expect(ReportFormats.named("jnuit") == nil)
}

@Test func commandsOfferTheFormatsWhoseNeedsTheyMeet() {
    let results = ReportFormats.available(providing: [.results]).map(\.name)
    #expect(results == ReportFormats.all.filter { $0.needs == .results }.map(\.name))
    #expect(results.contains("junit") && results.contains("html") && !results.contains("json"))
    #expect(ReportFormats.available(providing: [.results, .comparison]).map(\.name) == ReportFormats.all.map(\.name))
    #expect(ReportFormats.available(providing: []).isEmpty)
}

@Test func registryWritesTheSameJUnitBytesAsTheWriter() throws {
    let plain = ReportInput(results: sampleRun())
    #expect(try ReportFormat.junit.render(plain) == Data(JUnitReport.render(sampleRun()).utf8))
    let compared = comparedInput()
    let rendered = try ReportFormat.junit.render(compared)
    #expect(rendered == Data(JUnitReport.render(compared.results, baseline: compared.baseline).utf8))
    #expect(String(decoding: rendered, as: UTF8.self).contains("regression"), "the baseline change reaches the failure text")
}

@Test func registryWritesTheSameHTMLBytesAsTheWriter() throws {
    let variants = variantInput()
    #expect(variants.comparisons.count == 1)
    #expect(try ReportFormat.html.render(variants) == Data(HTMLReport.render(variantRun(), comparisons: variants.comparisons).utf8))
    let compared = comparedInput()
    let expected = HTMLReport.render(compared.results, baseline: compared.baseline, comparisons: compared.comparisons)
    #expect(try ReportFormat.html.render(compared) == Data(expected.utf8))
    #expect(expected != HTMLReport.render(compared.results), "the fixture's comparisons change the page")
}

/// The layout `fmeval compare --json` has always written, encoded independently of `ComparisonDocument`.
private struct LegacyComparison: Encodable {
    var baseline: BaselineComparison?
    var ab: [ABComparison]
}

@Test func registryWritesTheSameComparisonJSONAsBefore() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let compared = comparedInput()
    let bytes = try ReportFormat.comparisonJSON.render(compared)
    #expect(bytes == (try encoder.encode(LegacyComparison(baseline: compared.baseline, ab: compared.comparisons))))
    let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    #expect(Set(object.keys) == ["baseline", "ab"])
    #expect(String(decoding: bytes, as: UTF8.self).contains("\"base.json\""), "slashes and names unescaped")

    let variants = variantInput()
    let oneFile = try ReportFormat.comparisonJSON.render(variants)
    #expect(oneFile == (try encoder.encode(LegacyComparison(baseline: nil, ab: variants.comparisons))))
    let single = try #require(try JSONSerialization.jsonObject(with: oneFile) as? [String: Any])
    #expect(single["baseline"] == nil, "one file has no baseline")
}
