import FMCore

/// `--shard I/N`: run shard I (1-based) of N, a deterministic partition of the expanded cases.
///
/// A case belongs to shard `stableHash(suite, variant, case id) mod N + 1`. The hash is FNV-1a over
/// the UTF-8 bytes followed by a SplitMix64 finalizer, so the partition is the same on every machine,
/// process and Swift version (Swift's `Hasher` is randomly seeded per process and cannot be used).
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// This shard's number, 1...count.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// The whole run as one shard.
    public static let all = Shard(uncheckedIndex: 1, count: 1)

    /// A shard; throws `ShardError` unless `1 <= index <= count`.
    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw ShardError("--shard: the shard count must be at least 1, got \(count)") }
        guard (1...count).contains(index) else {
            throw ShardError("--shard: the shard number must be between 1 and \(count), got \(index)")
        }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex: Int, count: Int) {
        self.index = uncheckedIndex
        self.count = count
    }

    /// Parses `I/N` as given to `--shard` (e.g. `2/4`).
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let index = Int(parts[0].trimmingSpaces), let count = Int(parts[1].trimmingSpaces) else {
            throw ShardError("--shard: expected I/N such as 2/4 (shard I of N, counting from 1), got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// True when the case identified by `suite`, `variant` and `caseID` runs in this shard.
    public func contains(suite: String, variant: String?, caseID: String) -> Bool {
        count == 1 || Shard.number(suite: suite, variant: variant, caseID: caseID, count: count) == index
    }

    /// The shard (1...count) that owns a case.
    public static func number(suite: String, variant: String?, caseID: String, count: Int) -> Int {
        let hash = stableHash([suite, variant ?? "", caseID])
        return Int(hash % UInt64(max(1, count))) + 1
    }

    /// FNV-1a over the UTF-8 bytes of each part (each followed by a 0x1F separator), then SplitMix64 mixing.
    public static func stableHash(_ parts: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            hash ^= 0x1F
            hash &*= 0x0000_0100_0000_01b3
        }
        return SplitMix64.mix(hash)
    }
}

/// A malformed `--shard` value; the message names the flag and the expected form.
public struct ShardError: Error, Equatable, CustomStringConvertible {
    /// What was wrong and what to type instead.
    public let message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
