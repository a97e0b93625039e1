import Foundation

/// Compiled regular expressions shared by every evaluator: a suite's patterns are compiled once per run,
/// not once per attempt (compiling dominates the cost of a `regex` check).
enum RegexCache {
    private static let lock = NSLock()
    private nonisolated(unsafe) static var compiled: [String: Regex<AnyRegexOutput>] = [:]

    /// The compiled `pattern`; throws the compiler's error for a pattern that does not compile.
    static func regex(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        lock.lock()
        let known = compiled[pattern]
        lock.unlock()
        if let known { return known }
        let fresh = try Regex(pattern)
        lock.lock()
        compiled[pattern] = fresh
        lock.unlock()
        return fresh
    }
}
