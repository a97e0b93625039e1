import FMKernels
import Foundation

/// The memory-read bandwidth the decoder can hope for: every thread of the pool streams its share of a buffer
/// as big as what one decode step reads (the weights), front to back and again, as decode streams the weights
/// token after token; so whatever part of them the caches keep between tokens, the probe's buffer keeps too.
/// Several passes run; the best is the bound (the others lost time to other load), and the spread between
/// best and median says how far to trust it.
public struct BandwidthProbe: Sendable {
    /// The fewest bytes a pass reads (the buffer is read as often as that takes), so a pass lasts long
    /// enough to time however small the buffer.
    public static let minimumPassBytes = 256 << 20
    /// Passes run after one warm-up pass (which also maps the pages).
    public static let passes = 9

    /// Each pass's read bandwidth in bytes per second, in the order run.
    public let bytesPerSecond: [Double]

    /// The best pass: the bound.
    public var best: Double { bytesPerSecond.max() ?? 0 }
    /// The worst pass.
    public var worst: Double { bytesPerSecond.min() ?? 0 }
    /// The median pass.
    public var median: Double {
        let sorted = bytesPerSecond.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    /// (best − median) / best: how much a typical pass lost to other load.
    public var spread: Double { best > 0 ? (best - median) / best : 0 }

    /// Runs the probe on `pool`'s threads over a buffer of `bytes` (at least 8).
    public static func measure(pool: ThreadPool, bytes: Int, passes: Int = passes) -> BandwidthProbe {
        let count = max(1, bytes / 8)
        let rounds = max(1, (minimumPassBytes + count * 8 - 1) / (count * 8))
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        defer { words.deallocate() }
        for index in 0..<count { words[index] = UInt64(truncatingIfNeeded: index) }
        let workers = pool.activeCount
        let sums = UnsafeMutablePointer<UInt64>.allocate(capacity: workers)
        defer { sums.deallocate() }
        var rates: [Double] = []
        for pass in 0...passes {
            let started = Generator.now()
            pool.run { worker in
                let share = (count + workers - 1) / workers
                let start = min(count, worker * share), end = min(count, start + share)
                var sum: UInt64 = 0
                for _ in 0..<rounds { sum &+= fmk_stream_sum(words + start, end - start) }
                sums[worker] = sum
            }
            let seconds = Generator.now() - started
            guard pass > 0 else { continue }
            rates.append(Double(count * 8 * rounds) / seconds)
        }
        return BandwidthProbe(bytesPerSecond: rates)
    }
}
