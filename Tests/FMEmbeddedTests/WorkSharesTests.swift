import Foundation
import Testing
@testable import FMEmbedded

/// The threads' learned shares of a decode step's rows.
@Suite struct WorkSharesTests {
    @Test func theThreadsPartsCoverEveryUnitOnceInWholeGranules() {
        for workers in 1...5 {
            let shares = WorkShares(workers: workers)
            for weights in [Array(repeating: 1.0, count: workers), (1...workers).map(Double.init)] {
                shares.force(weights)
                for (count, granularity) in [(0, 1), (1, 1), (15, 1), (48, 1), (576, 16), (49_152, 4), (100, 16)] {
                    let parts = (0..<workers).map {
                        shares.range(.down, count: count, granularity: granularity, worker: $0)
                    }
                    #expect(parts.first?.lowerBound == 0 && parts.last?.upperBound == count)
                    for (a, b) in zip(parts, parts.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
                    for part in parts.dropLast() { #expect(part.upperBound % granularity == 0) }
                }
            }
        }
    }

    @Test func forcedSharesSplitInProportion() {
        let shares = WorkShares(workers: 2)
        #expect(shares.range(.gateUp, count: 48, granularity: 1, worker: 0) == 0..<24)
        shares.force([1, 3])
        #expect(shares.range(.gateUp, count: 48, granularity: 1, worker: 0) == 0..<12)
        #expect(shares.range(.attentionOutput, count: 576, granularity: 16, worker: 1) == 144..<576)
    }

    @Test func aRebalanceMovesRowsToTheFasterThreadAndKeepsEveryThreadBusy() {
        let shares = WorkShares(workers: 2)
        // Thread 1 takes three times as long per row: a third of the speed.
        for _ in 0..<40 {
            shares.record(.down, worker: 0, units: 288, ticks: 288)
            shares.record(.down, worker: 1, units: 288, ticks: 3 * 288)
            shares.rebalance()
        }
        let learned = shares.shares(.down)
        #expect(abs(learned[0] - 0.75) < 0.01 && abs(learned[1] - 0.25) < 0.01, "\(learned)")
        #expect(shares.shares(.gateUp) == [0.5, 0.5], "phases learn apart")
        for _ in 0..<40 {
            shares.record(.down, worker: 0, units: 100, ticks: 1)
            shares.record(.down, worker: 1, units: 1, ticks: 1_000_000)
            shares.rebalance()
        }
        #expect(shares.shares(.down)[1] >= WorkShares.floor / 2 - 1e-12, "a slow thread keeps a share")
    }

    @Test func aThreadThatTookNothingCountsAsTheMeanAndTimingsClearAfterARebalance() {
        let shares = WorkShares(workers: 3)
        shares.record(.outputHead, worker: 0, units: 10, ticks: 10)
        shares.record(.outputHead, worker: 1, units: 10, ticks: 30)
        shares.rebalance()
        let moved = shares.shares(.outputHead)
        #expect(moved[0] > moved[2] && moved[2] > moved[1], "\(moved)")
        shares.rebalance()
        #expect(shares.shares(.outputHead) == moved, "nothing recorded since, nothing moves")
    }

    /// Every row is computed by the same kernel whichever thread takes it: decode steps split far from
    /// even give the bits of an even split, and a decode step learns from its own timings.
    @Test func decodeLogitsKeepTheirBitsUnderAnySplit() throws {
        let url = try ModelStore.defaultModelURL { print($0) }
        let model = try LlamaModel(path: url.path, contextLength: 128, threads: 2)
        let prompt: [Int32] = [1, 9690, 198, 2683, 359, 253, 5356, 5646, 11173, 30, 2, 198, 1, 4093, 198]
        func decode(_ weights: [Double]) throws -> [[Float]] {
            try model.forward(prompt, startPosition: 0)
            var logits = [Array(model.logits)], token = Int32(logits[0].indices.max { logits[0][$0] < logits[0][$1] }!)
            for step in 0..<8 {
                model.workShares.force(weights)
                try model.forward([token], startPosition: prompt.count + step)
                logits.append(Array(model.logits))
                token = Int32(logits.last!.indices.max { logits.last![$0] < logits.last![$1] }!)
            }
            return logits
        }
        let even = try decode([1, 1])
        #expect(model.workShares.shares(.down) != [0.5, 0.5], "the last step moved the shares it measured")
        for weights in [[1.0, 9.0], [9.0, 1.0]] {
            let skewed = try decode(weights)
            for (step, (a, b)) in zip(skewed, even).enumerated() {
                #expect(a.map(\.bitPattern) == b.map(\.bitPattern), "step \(step) with shares \(weights)")
            }
        }
    }
}
