import Foundation
import FMCore

/// Compiled regular expressions shared by every evaluator: a suite's patterns are compiled once per run,
/// not once per attempt (compiling dominates the cost of a `regex` check).
enum RegexCache {
    private static let compiled = Locked<[String: SharedRegex]>([:])

    /// The compiled `pattern`; throws the compiler's error for a pattern that does not compile.
    static func regex(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        if let known = compiled.withLock({ $0[pattern] }) { return known.regex }
        let fresh = try Regex(pattern)
        compiled.withLock { $0[pattern] = SharedRegex(regex: fresh) }
        return fresh
    }
}

/// A compiled regex handed to several evaluator threads.
// @unchecked Sendable: a `Regex` is immutable once built (its lazily lowered program is published
// atomically by the standard library); it is not Sendable only because its output type may hold `Any`.
private struct SharedRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
}
