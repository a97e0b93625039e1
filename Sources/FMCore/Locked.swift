import Foundation

/// A value shared by several threads, read and changed only while holding its lock.
// @unchecked Sendable: `value` is private and touched only inside `withLock`, under `lock`; it is Sendable itself.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock and returns what it returns.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
