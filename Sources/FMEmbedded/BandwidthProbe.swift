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

    /// Figures from passes already run (`Reader.read`).
    public init(bytesPerSecond: [Double]) { self.bytesPerSecond = bytesPerSecond }

    /// The probe's buffer, kept so that passes can run between other work (beside each decode run, so a
    /// run is compared with what the memory delivered the same second on a machine whose neighbours take
    /// a varying share of it).
    // @unchecked Sendable: the buffer is written once, in `init`, and only read after.
    public final class Reader: @unchecked Sendable {
        private let pool: ThreadPool
        private let memory: LargePageMemory
        private let words: UnsafeMutablePointer<UInt64>
        private let count: Int
        /// Times the buffer is read in one pass (so a pass reads at least `minimumPassBytes`).
        private let rounds: Int
        private let sums: UnsafeMutablePointer<UInt64>

        /// A buffer of `bytes` (at least 8) filled, then read once (the warm-up, which also maps the pages).
        public init(pool: ThreadPool, bytes: Int) {
            self.pool = pool
            count = max(1, bytes / 8)
            rounds = max(1, (minimumPassBytes + count * 8 - 1) / (count * 8))
            // The pages decode's packed weights get, so the bound counts what they save.
            memory = LargePageMemory(byteCount: count * 8)
            words = memory.base.bindMemory(to: UInt64.self, capacity: count)
            for index in 0..<count { words[index] = UInt64(truncatingIfNeeded: index) }
            sums = UnsafeMutablePointer<UInt64>.allocate(capacity: pool.activeCount)
            _ = read(passes: 1)
        }

        deinit { sums.deallocate() }

        /// Each of `passes` passes' read bandwidth in bytes per second, in the order run.
        public func read(passes: Int) -> [Double] {
            let (words, count, rounds, sums, workers) = (words, count, rounds, sums, pool.activeCount)
            return (0..<passes).map { _ in
                let started = Generator.now()
                pool.run { worker in
                    let share = (count + workers - 1) / workers
                    let start = min(count, worker * share), end = min(count, start + share)
                    var sum: UInt64 = 0
                    for _ in 0..<rounds { sum &+= fmk_stream_sum(words + start, end - start) }
                    sums[worker] = sum
                }
                return Double(count * 8 * rounds) / (Generator.now() - started)
            }
        }
    }
}
