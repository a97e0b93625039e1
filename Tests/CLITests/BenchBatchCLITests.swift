import Foundation
import Testing

/// CLI tests of `fmeval bench batch` (batched decoding throughput).
@Suite(.serialized) struct BenchBatchCLITests {
    @Test func rejectsBadSequenceCountsAndTokenLimits() throws {
        for bad in ["0", "1,,4", "two", "65"] {
            let result = try runFMEval(["bench", "batch", "--sequences", bad])
            #expect(result.status == 2 && result.stderr.contains("--sequences '\(bad)'"), "\(bad): \(result.stderr)")
        }
        let long = try runFMEval(["bench", "batch", "--tokens", "600"])
        #expect(long.status == 2 && long.stderr.contains("--tokens 600"))
        let model = try runFMEval(["bench", "batch", "--model", "Package.swift"])
        #expect(model.status == 2 && model.stderr.contains("--model"))
    }

    @Test func reportsEverySequenceCountWithItsSteps() throws {
        let result = try runFMEval(["bench", "batch", "--json", "--sequences", "1,3", "--tokens", "6", "--repeat", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["sequences"] as? Int } == [1, 3])
        // Five steps per run in either case: three sequences decode together, one weight pass per token.
        #expect(results.compactMap { $0["steps"] as? Int } == [5, 5])
        #expect(results.allSatisfy { ($0["tokensPerSecond"] as? Double ?? 0) > 0 })
        #expect(object["tokensPerSequence"] as? Int == 6 && (object["loadAverage"] as? [Double])?.count == 2)
    }
}
