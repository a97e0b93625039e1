import Foundation
import Testing

/// `fmeval bench`'s memory-read bound: read beside each decode run, so every run has its own fraction.
@Suite struct BenchBoundCLITests {
    /// One fast level, so that only it is measured (the portable level takes a minute).
    #if arch(arm64)
    static let level = "neon"
    #else
    static let level = "avx2"
    #endif

    @Test func eachDecodeRunIsHeldToThePassesReadBesideIt() throws {
        let run = try runFMEval(["bench", "--json", "--repeat", "3"], environment: ["FMEVAL_KERNEL_LEVEL": Self.level])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let fractions = try #require(object["decodeFractionsOfBound"] as? [Double])
        let passes = try #require(object["memoryReadPasses"] as? [Double])
        #expect(fractions.count == 3)
        #expect(passes.count == 3 * 2 * 3, "three passes before and three after each of three runs")
        #expect(fractions.allSatisfy { $0 > 0 && $0.isFinite })
        #expect(object["decodeFractionOfBound"] as? Double == fractions.sorted()[1])
        let best = try #require(object["memoryReadBytesPerSecond"] as? Double)
        #expect(best == passes.max())
    }
}
