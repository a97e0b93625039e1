import FMKernels
import Foundation
import Testing
@testable import FMEmbedded

/// One counter per thread index, each on its own cache line, written only by its thread during a run.
// @unchecked Sendable: during a run each thread writes only its own slot; the test reads them after `run` returns.
private final class Slots: @unchecked Sendable {
    static let stride = 8
    let count: Int
    let values: UnsafeMutablePointer<Int>

    init(count: Int) {
        self.count = count
        values = .allocate(capacity: count * Self.stride)
        values.initialize(repeating: 0, count: count * Self.stride)
    }

    deinit { values.deallocate() }

    subscript(index: Int) -> Int {
        get { values[index * Self.stride] }
        set { values[index * Self.stride] = newValue }
    }
}

/// The error a test body throws, tagged with the thread that threw it.
private struct WorkerFailure: Error, Equatable { let index: Int }

/// Busy work the optimizer cannot drop: `amount` rounds of an LCG.
private func spin(_ amount: Int) -> Int {
    var x = amount
    for _ in 0..<amount { x = x &* 6_364_136_223_846_793_005 &+ 1 }
    return x
}

@Suite(.timeLimit(.minutes(2))) struct ThreadPoolTests {
    @Test func sizesAreClampedAndEveryIndexRunsExactlyOncePerRun() {
        #expect(ThreadPool(threadCount: 0).activeCount == 1)
        #expect(ThreadPool(threadCount: -3).threadCount == 1)
        let pool = ThreadPool(threadCount: 4)
        #expect(pool.threadCount == 4 && pool.activeCount == 4)
        let slots = Slots(count: pool.activeCount)
        let runs = 5_000
        for _ in 0..<runs { pool.run { slots[$0] += 1 } }
        #expect((0..<slots.count).map { slots[$0] } == Array(repeating: runs, count: pool.activeCount))
    }

    @Test func unevenJobsMeetAtBarriersBeforeReadingEachOthersResults() {
        let pool = ThreadPool(threadCount: 3)
        let workers = pool.activeCount
        let first = Slots(count: workers), second = Slots(count: workers), noise = Slots(count: workers)
        for round in 1...300 {
            pool.run { index in
                // Thread `index` works about index × round units before writing, so arrivals are skewed.
                noise[index] = spin(index * (round % 7) * 200)
                first[index] = round * 10 + index
                pool.barrier()
                second[index] = (0..<workers).reduce(0) { $0 + first[$1] }
                pool.barrier()
                if index == workers - 1 { noise[index] = spin(round % 5 * 500) }
            }
            let expected = (0..<workers).reduce(0) { $0 + round * 10 + $1 }
            #expect((0..<workers).allSatisfy { second[$0] == expected }, "round \(round)")
        }
    }

    @Test func aThrowingJobIsRethrownAfterEveryThreadFinishesAndThePoolStaysUsable() throws {
        let pool = ThreadPool(threadCount: 4)
        let workers = pool.activeCount
        let finished = Slots(count: workers), noise = Slots(count: workers)
        #expect(throws: WorkerFailure(index: workers - 1)) {
            try pool.runThrowing { index in
                if index == workers - 1 { throw WorkerFailure(index: index) }
                noise[index] = spin(20_000)
                finished[index] = 1
            }
        }
        #expect((0..<(workers - 1)).allSatisfy { finished[$0] == 1 }, "the other threads ran to the end")
        let thrown = Slots(count: workers)
        do {
            try pool.runThrowing { index in
                thrown[index] = 1
                throw WorkerFailure(index: index)
            }
            Issue.record("every thread threw, so runThrowing must throw")
        } catch let failure as WorkerFailure {
            #expect((0..<workers).contains(failure.index))
        }
        #expect((0..<workers).allSatisfy { thrown[$0] == 1 })
        let after = Slots(count: workers)
        try pool.runThrowing { after[$0] = $0 + 1 }
        #expect((0..<workers).map { after[$0] } == Array(1...workers))
    }

    @Test func poolsShutDownWhileWorkersSpinSleepOrHaveNotStarted() {
        for i in 0..<200 {
            let pool = ThreadPool(threadCount: 3)
            // Dropped at once (workers may not have reached their loop), right after a run (workers
            // still spinning for the next one), or after they fell asleep.
            if i % 2 == 1 {
                let slots = Slots(count: pool.activeCount)
                pool.run { slots[$0] = 1 }
                #expect((0..<slots.count).allSatisfy { slots[$0] == 1 })
            }
        }
        let sleeping = ThreadPool(threadCount: 3)
        sleeping.run { _ in }
        usleep(200_000)
        let slots = Slots(count: sleeping.activeCount)
        sleeping.run { slots[$0] = 7 }
        #expect((0..<slots.count).allSatisfy { slots[$0] == 7 }, "sleeping workers wake for a new run")
    }

    @Test func moreThreadsThanCoresStillAgreeAfterManyBarriers() {
        let threads = 4 * ProcessInfo.processInfo.activeProcessorCount
        let pool = ThreadPool(threadCount: threads)
        #expect(pool.activeCount == threads)
        let values = Slots(count: threads), sums = Slots(count: threads)
        for round in 0..<100 {
            pool.run { index in
                for step in 0..<3 {
                    values[index] = round + step + index
                    pool.barrier()
                    sums[index] = (0..<threads).reduce(0) { $0 + values[$1] }
                    pool.barrier()
                }
            }
            let expected = (0..<threads).reduce(0) { $0 + round + 2 + $1 }
            #expect((0..<threads).allSatisfy { sums[$0] == expected }, "round \(round)")
        }
    }

    /// A run started inside another run of the same pool would share its body slot and barriers: the pool
    /// stops the process with a message instead of racing.
    @Test func aRunInsideARunStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let pool = ThreadPool(threadCount: 2)
            pool.run { index in
                if index == 0 { pool.run { _ in } }
            }
        }
    }
}
