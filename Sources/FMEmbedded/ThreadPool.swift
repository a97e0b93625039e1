#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMKernels

/// A persistent pool of threads that run one body in lockstep, synchronized by spin barriers.
///
/// `run` hands the same body to every thread (the caller is thread 0); inside it, threads split
/// work by index and meet at `barrier()`. Idle workers spin briefly, then sleep on a condition
/// variable, so a pool between requests costs no CPU. One `run` at a time (the engine serializes): a run
/// started while another is in progress, on any thread, stops the process with a message, since the two
/// would share one body slot and one set of barriers.
/// Every thread of a run computes at the pool's kernel level (the C library's level is per thread).
// @unchecked Sendable: `workers` changes only in `init` and is read only in `deinit`; `run` is called one at a time.
public final class ThreadPool: @unchecked Sendable {
    /// Threads taking part in each `run`, the caller included.
    public let threadCount: Int
    /// The kernel level every thread of a run uses.
    public let kernelLevel: KernelLevel
    private let shared: PoolShared
    private var workers: [pthread_t] = []

    /// Starts `threadCount - 1` workers (at least one thread: the caller) that compute at `kernelLevel`
    /// (one this CPU runs; default: the detected level).
    public init(threadCount: Int, kernelLevel: KernelLevel = .detected) {
        self.threadCount = max(1, threadCount)
        self.kernelLevel = kernelLevel
        shared = PoolShared(threadCount: self.threadCount)
        for index in 1..<self.threadCount {
            let context = Unmanaged.passRetained(WorkerContext(shared: shared, index: index, kernelLevel: kernelLevel))
                .toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                let context = Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue()
                fmk_set_level(context.kernelLevel.rawValue)
                context.shared.workerLoop(index: context.index)
                return nil
            }, context)
            if status == 0 {
                workers.append(thread)
            } else {
                Unmanaged<WorkerContext>.fromOpaque(context).release()
            }
        }
        shared.activeThreads = workers.count + 1
    }

    /// The default size: one thread per available core, at most 8 (more does not help a small model),
    /// or `FMEVAL_THREADS` when set.
    public static var defaultThreadCount: Int {
        if let text = getenv("FMEVAL_THREADS"), let value = Int(String(cString: text)), value > 0 { return value }
        return max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 8))
    }

    /// Threads that actually started (the caller included); `body` indices run over `0..<activeCount`.
    public var activeCount: Int { shared.activeThreads }

    deinit {
        shared.shutdown()
        for thread in workers { pthread_join(thread, nil) }
    }

    /// Runs `body(index)` on every thread, index 0 on the caller, and returns when all are done. The
    /// caller computes at the pool's kernel level during the run and at its own level again after it.
    public func run(_ body: (Int) -> Void) {
        shared.enter()
        defer { shared.leave() }
        let callerLevel = fmk_thread_level()
        fmk_set_level(kernelLevel.rawValue)
        defer { fmk_set_level(callerLevel) }
        withoutActuallyEscaping(body) { escapable in
            shared.start(escapable)
            escapable(0)
            shared.waitForWorkers()
        }
    }

    /// Runs `body(index)` on every thread as `run` does, then rethrows the first error any thread threw.
    ///
    /// Every thread runs to the end of its body before this returns or throws. A body that meets at
    /// `barrier()` must pass every barrier before it throws, or the other threads wait for it forever.
    public func runThrowing(_ body: (Int) throws -> Void) throws {
        let failure = FirstFailure()
        run { index in
            do { try body(index) } catch { failure.record(error) }
        }
        if let error = failure.error { throw error }
    }

    /// Waits until every thread of the current `run` has reached this call.
    public func barrier() { shared.barrier() }
}

/// The first error recorded by any thread of a `runThrowing`.
// @unchecked Sendable: `first` is read and written only under `lock`.
private final class FirstFailure: @unchecked Sendable {
    private let lock = PosixLock()
    private var first: Error?

    /// Keeps `error` unless an earlier one was recorded.
    func record(_ error: Error) { lock.withLock { if first == nil { first = error } } }

    /// The error recorded first, if any.
    var error: Error? { lock.withLock { first } }
}

/// What a worker thread needs: the shared state, its index and its kernel level.
private final class WorkerContext {
    let shared: PoolShared
    let index: Int
    let kernelLevel: KernelLevel
    init(shared: PoolShared, index: Int, kernelLevel: KernelLevel) {
        self.shared = shared
        self.index = index
        self.kernelLevel = kernelLevel
    }
}

/// State shared by the pool's threads; counters live on separate cache lines.
// @unchecked Sendable: the counters change only through atomics, `sleepers` only under `wake`, and `body`
// only between runs (published by the `generation` increment; workers finish before it is cleared).
private final class PoolShared: @unchecked Sendable {
    private static let line = 8
    /// Empty polls a worker spins through (`pause`) before it sleeps on the condition variable: long
    /// enough to bridge the gap between two forward passes of one decode, short enough to idle at 0% CPU.
    private static let spinsBeforeSleep = 20_000
    /// Polls a waiting thread spends on `pause` before it starts yielding its core with `sched_yield`
    /// (a partner that has not arrived yet may be descheduled on a loaded machine).
    private static let spinsBeforeYield = 128
    private let counters: UnsafeMutablePointer<Int64>
    private let body: UnsafeMutablePointer<((Int) -> Void)?>
    private let wake = PosixLock()
    private var sleepers = 0
    var activeThreads: Int

    private var generation: UnsafeMutablePointer<Int64> { counters }
    private var finished: UnsafeMutablePointer<Int64> { counters + Self.line }
    private var arrivals: UnsafeMutablePointer<Int64> { counters + 2 * Self.line }
    private var epoch: UnsafeMutablePointer<Int64> { counters + 3 * Self.line }
    private var stopping: UnsafeMutablePointer<Int64> { counters + 4 * Self.line }
    private var running: UnsafeMutablePointer<Int64> { counters + 5 * Self.line }

    init(threadCount: Int) {
        activeThreads = threadCount
        counters = .allocate(capacity: 6 * Self.line)
        counters.initialize(repeating: 0, count: 6 * Self.line)
        body = .allocate(capacity: 1)
        body.initialize(to: nil)
    }

    deinit {
        body.deinitialize(count: 1)
        body.deallocate()
        counters.deallocate()
    }

    /// Marks a run as in progress; stops the process when one already is (the pool is not re-entrant).
    func enter() {
        guard fmk_atomic_add(running, 1) == 1 else {
            fatalError("ThreadPool.run was called while another run of the same pool was in progress; "
                + "a pool runs one body at a time (serialize the callers, or give each its own pool)")
        }
    }

    /// Marks the run as finished.
    func leave() { fmk_atomic_add(running, -1) }

    func start(_ work: @escaping (Int) -> Void) {
        body.pointee = work
        fmk_atomic_add(generation, 1)
        wake.withLock { if sleepers > 0 { wake.broadcast() } }
    }

    func waitForWorkers() {
        let target = fmk_atomic_load(generation) * Int64(activeThreads - 1)
        var spins = 0
        while fmk_atomic_load(finished) != target { Self.pause(&spins) }
        body.pointee = nil
    }

    func barrier() {
        guard activeThreads > 1 else { return }
        let seen = fmk_atomic_load(epoch)
        if fmk_atomic_add(arrivals, 1) == Int64(activeThreads) {
            fmk_atomic_store(arrivals, 0)
            fmk_atomic_add(epoch, 1)
            return
        }
        var spins = 0
        while fmk_atomic_load(epoch) == seen { Self.pause(&spins) }
    }

    func shutdown() {
        fmk_atomic_store(stopping, 1)
        wake.withLock { wake.broadcast() }
    }

    func workerLoop(index: Int) {
        var seen: Int64 = 0
        while true {
            var spins = 0
            while fmk_atomic_load(generation) == seen {
                if fmk_atomic_load(stopping) != 0 { return }
                spins += 1
                if spins < Self.spinsBeforeSleep {
                    fmk_cpu_relax()
                } else {
                    wake.lock()
                    sleepers += 1
                    while fmk_atomic_load(generation) == seen && fmk_atomic_load(stopping) == 0 { wake.wait() }
                    sleepers -= 1
                    wake.unlock()
                }
            }
            seen += 1
            body.pointee?(index)
            fmk_atomic_add(finished, 1)
        }
    }

    /// Spins politely: `pause` at first, then yields the core to whoever we are waiting for.
    private static func pause(_ spins: inout Int) {
        spins += 1
        if spins < spinsBeforeYield { fmk_cpu_relax() } else { sched_yield() }
    }
}
