#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex with a condition variable, both at a stable heap address.
///
/// Swift does not promise that a stored `var` keeps one address (passing it with `&` may hand pthreads
/// a temporary copy), so the mutex and condition live in memory allocated here and freed in `deinit`.
// @unchecked Sendable: the pointers never change, and pthreads makes the mutex and condition thread-safe.
final class PosixLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new unlocked mutex and its condition variable.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Acquires the mutex.
    func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex.
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the mutex.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the mutex, sleeps until `broadcast`, and re-acquires it (the caller holds the mutex
    /// and re-checks its condition in a loop: wake-ups may be spurious).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread sleeping in `wait`.
    func broadcast() { pthread_cond_broadcast(condition) }
}
