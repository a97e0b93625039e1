import Foundation
import Testing
import FMCore

/// Increments from many threads at once all land: every read-modify-write runs under the lock.
@Test func concurrentUpdatesAreNotLost() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
        for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
    }
    #expect(counter.withLock { $0 } == 160_000)
}

/// `withLock` returns what its body returns and rethrows what it throws, leaving the value as the body left it.
@Test func withLockReturnsAndRethrows() {
    struct Stop: Error {}
    let names = Locked(["a"])
    #expect(names.withLock { $0.append("b"); return $0.count } == 2)
    #expect(throws: Stop.self) { try names.withLock { $0.append("c"); throw Stop() } }
    #expect(names.withLock { $0 } == ["a", "b", "c"])
}
