/// How the pool's threads divide the rows of each split phase of a decode step, learned from how fast
/// each thread got through its rows in the steps before. Threads of one pool do not run equally fast: on
/// a shared virtual machine one vCPU ran slower than the other for seconds at a time, so with even
/// shares each waited 260–650 µs a token at barriers (docs/engine.md), and on a CPU with performance
/// and efficiency cores an even split leaves the fast cores waiting at every barrier. Each row is
/// computed by the same kernel whichever thread takes it, so no output changes by a bit.
///
/// Shares change only between passes (`rebalance`, called where no pass runs); during a pass every
/// thread reads the same boundaries, and each thread adds its own timings to its own cache line.
// @unchecked Sendable: boundaries are written only between passes (the pool's run publishes them),
// timings only by the thread whose slots they are.
final class WorkShares: @unchecked Sendable {
    /// The parts of a decode step whose rows (or heads) are split among the threads.
    enum Phase: Int, CaseIterable {
        case queryKeyValue, attentionOutput, gateUp, down, outputHead
    }

    /// How far one rebalance moves a share towards what the last step's speeds ask for: the measured
    /// speeds of one step are noisy, several steps agree.
    static let step = 0.3
    /// The smallest share a thread keeps, over an even share: a thread that ran slow once still gets work,
    /// so its speed keeps being measured.
    static let floor = 0.25
    /// `UInt64` slots between two threads' timings: one cache line each.
    private static let stride = 8

    /// Threads sharing the work.
    let workers: Int
    /// Per phase, `workers + 1` cumulative shares (0 first, 1 last): thread w takes the units between
    /// cuts w and w + 1. Pointers, not arrays, so that threads reading them touch no reference count.
    private let cuts: UnsafeMutablePointer<Double>
    /// Per thread and phase: units (rows or heads) taken and ticks spent on them since the last rebalance.
    private let units, ticks: UnsafeMutablePointer<UInt64>

    /// Even shares for `workers` threads.
    init(workers: Int) {
        self.workers = max(1, workers)
        cuts = .allocate(capacity: Phase.allCases.count * (self.workers + 1))
        let slots = self.workers * Self.stride
        units = .allocate(capacity: slots)
        units.initialize(repeating: 0, count: slots)
        ticks = .allocate(capacity: slots)
        ticks.initialize(repeating: 0, count: slots)
        force(Array(repeating: 1, count: self.workers))
    }

    deinit {
        cuts.deallocate()
        units.deallocate()
        ticks.deallocate()
    }

    /// Thread `worker`'s part of `count` units in `phase`: whole multiples of `granularity` (the last
    /// thread also takes any remainder); together the threads' parts cover `0..<count` once, in order.
    @inline(__always)
    func range(_ phase: Phase, count: Int, granularity: Int, worker: Int) -> Range<Int> {
        let first = cuts + phase.rawValue * (workers + 1), blocks = Double(count / granularity)
        // Cut `i` as a unit index: the ends are exact, the cuts between fall on whole granules.
        let unit = { (i: Int) in
            i == 0 ? 0 : i == self.workers ? count : min(count, Int((first[i] * blocks).rounded()) * granularity)
        }
        let lower = unit(worker)
        return lower..<max(lower, unit(worker + 1))
    }

    /// Records that `worker` took `units` of `phase` in `ticks` (`fmk_ticks`) during this pass.
    @inline(__always)
    func record(_ phase: Phase, worker: Int, units count: Int, ticks spent: UInt64) {
        let slot = worker * Self.stride + phase.rawValue
        units[slot] &+= UInt64(count)
        ticks[slot] &+= spent
    }

    /// Moves each phase's shares towards the threads' measured speeds (units per tick) and clears the
    /// timings. Call only while no pass runs.
    func rebalance() {
        guard workers > 1 else { return }
        for phase in Phase.allCases {
            var speeds = [Double?](repeating: nil, count: workers)
            for w in 0..<workers {
                let slot = w * Self.stride + phase.rawValue
                if units[slot] > 0 && ticks[slot] > 0 { speeds[w] = Double(units[slot]) / Double(ticks[slot]) }
                units[slot] = 0
                ticks[slot] = 0
            }
            let known = speeds.compactMap { $0 }
            guard known.count > 1 else { continue }
            // A thread that took nothing this pass is taken to run at the others' mean speed.
            let mean = known.reduce(0, +) / Double(known.count)
            let filled = speeds.map { $0 ?? mean }, total = filled.reduce(0, +)
            let current = shares(phase)
            let moved = (0..<workers).map { current[$0] + Self.step * (filled[$0] / total - current[$0]) }
            set(phase, Self.clamped(moved, least: Self.floor / Double(workers)))
        }
    }

    /// `shares` (summing to 1) with none below `least`: a share raised to it is taken from the others in
    /// proportion to theirs.
    static func clamped(_ shares: [Double], least: Double) -> [Double] {
        var result = shares, raised = [Bool](repeating: false, count: shares.count)
        while true {
            let free = result.indices.filter { !raised[$0] }
            let budget = 1 - least * Double(shares.count - free.count)
            let freeSum = free.reduce(0) { $0 + result[$1] }
            for i in free { result[i] = freeSum > 0 ? result[i] * budget / freeSum : budget / Double(free.count) }
            guard let low = free.first(where: { result[$0] < least }) else { return result }
            raised[low] = true
            result[low] = least
        }
    }

    /// Sets every phase's shares to `weights` over their sum (tests: a split far from even must give the
    /// same outputs).
    func force(_ weights: [Double]) {
        precondition(weights.count == workers && weights.allSatisfy { $0 > 0 })
        for phase in Phase.allCases { set(phase, weights) }
    }

    /// Each thread's share of `phase`.
    func shares(_ phase: Phase) -> [Double] {
        let first = cuts + phase.rawValue * (workers + 1)
        return (0..<workers).map { first[$0 + 1] - first[$0] }
    }

    private func set(_ phase: Phase, _ weights: [Double]) {
        let first = cuts + phase.rawValue * (workers + 1), total = weights.reduce(0, +)
        var sum = 0.0
        first[0] = 0
        for w in 0..<workers {
            sum += weights[w]
            first[w + 1] = w + 1 == workers ? 1 : sum / total
        }
    }
}
