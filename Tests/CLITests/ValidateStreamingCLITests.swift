import Foundation
import Testing

/// A suite over a dataset of `count` cases under two variants; `broken` puts a bad line at the end.
private func datasetSuite(count: Int, broken: Bool) throws -> URL {
    let folder = try temporaryFolder()
    var lines = (0..<count).map { #"{"id": "c\#($0)", "prompt": "Review \#($0)", "expect": {"equals": "positive"}}"# }
    if broken { lines.append(#"{"id": "last", "prompt": "p", "extra": true}"#) }
    try Data(lines.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("d.jsonl"))
    let suite = """
        suite: reviews
        engine: embedded
        generating: { enum: [positive, negative] }
        variants: [{ name: plain }, { name: terse, prompt: "R: {{prompt}}" }]
        dataset: d.jsonl
        """
    try Data(suite.utf8).write(to: folder.appendingPathComponent("s.yaml"))
    return folder.appendingPathComponent("s.yaml")
}

@Test func validateJSONStreamsEveryCaseOfABigDatasetAsOneArray() throws {
    let suite = try datasetSuite(count: 9_000, broken: false)
    let result = try runFMEval(["validate", "--json", suite.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("1 suite, 18000 cases, 0 errors"))
    let cases = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(cases.count == 18_000)
    #expect(cases.first?["id"] as? String == "reviews/c0@plain")
    #expect(cases.last?["id"] as? String == "reviews/c8999@terse")
    #expect(cases.last?["prompt"] as? String == "R: Review 8999")
}

@Test func validateJSONPrintsNothingWhenALateLineIsBad() throws {
    let suite = try datasetSuite(count: 9_000, broken: true)
    let result = try runFMEval(["validate", "--json", suite.path])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty, "cases streamed before the error must not reach stdout")
    #expect(result.stderr.contains("d.jsonl:9001:"))
    #expect(result.stderr.contains("1 suite, 0 cases, 1 error"), "\(result.stderr)")
}
