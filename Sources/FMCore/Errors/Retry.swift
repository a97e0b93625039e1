import Foundation

/// How often and how patiently to retry `retryableInfrastructure` failures: capped exponential
/// backoff with jitter. A server's Retry-After replaces the backoff for that retry (no jitter),
/// capped at `maxDelaySeconds`.
public struct RetryPolicy: Codable, Sendable, Hashable {
    /// Tries in all, the first included (1: never retry).
    public var maxAttempts: Int
    /// The backoff before the first retry, in seconds.
    public var initialDelaySeconds: Double
    /// No wait is longer than this, Retry-After included.
    public var maxDelaySeconds: Double
    /// Each further retry's backoff is the previous one times this.
    public var multiplier: Double
    /// The random share of each wait, 0...1: 1 is full jitter (uniform in 0...backoff), 0 waits exactly the backoff.
    public var jitter: Double

    /// Never retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Creates a policy; the defaults try 3 times, waiting up to 1 s then 2 s (full jitter), never over 30 s.
    public init(maxAttempts: Int = 3, initialDelaySeconds: Double = 1, maxDelaySeconds: Double = 30,
                multiplier: Double = 2, jitter: Double = 1) {
        self.maxAttempts = maxAttempts
        self.initialDelaySeconds = initialDelaySeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The capped backoff before retry number `retry` (1-based), before jitter.
    public func backoff(beforeRetry retry: Int) -> Double {
        let grown = initialDelaySeconds * pow(multiplier, Double(max(0, retry - 1)))
        return min(maxDelaySeconds, grown.isFinite ? grown : maxDelaySeconds)
    }

    /// The wait before retry number `retry`: the server's `retryAfter` when given (capped), else the
    /// backoff less `jitter` × `random` (0..<1) of it.
    public func delay(beforeRetry retry: Int, random: Double, retryAfter: Double?) -> Double {
        if let retryAfter { return min(maxDelaySeconds, max(0, retryAfter)) }
        let backoff = backoff(beforeRetry: retry)
        return backoff * (1 - jitter * min(max(random, 0), 1))
    }

    private enum CodingKeys: String, CodingKey { case maxAttempts, initialDelaySeconds, maxDelaySeconds, multiplier, jitter }

    /// Decodes a policy; a missing field keeps its default, an impossible value is a `DecodingError`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RetryPolicy()
        self.init(maxAttempts: try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? defaults.maxAttempts,
                  initialDelaySeconds: try container.decodeIfPresent(Double.self, forKey: .initialDelaySeconds) ?? defaults.initialDelaySeconds,
                  maxDelaySeconds: try container.decodeIfPresent(Double.self, forKey: .maxDelaySeconds) ?? defaults.maxDelaySeconds,
                  multiplier: try container.decodeIfPresent(Double.self, forKey: .multiplier) ?? defaults.multiplier,
                  jitter: try container.decodeIfPresent(Double.self, forKey: .jitter) ?? defaults.jitter)
        let checks: [(Bool, CodingKeys, String)] = [
            (maxAttempts >= 1, .maxAttempts, "maxAttempts must be at least 1 (1 never retries)"),
            (initialDelaySeconds >= 0, .initialDelaySeconds, "initialDelaySeconds must not be negative"),
            (maxDelaySeconds >= 0, .maxDelaySeconds, "maxDelaySeconds must not be negative"),
            (multiplier >= 1, .multiplier, "multiplier must be at least 1"),
            ((0...1).contains(jitter), .jitter, "jitter must be between 0 and 1 (1: full jitter)"),
        ]
        for (holds, key, message) in checks where !holds {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: message)
        }
    }
}

/// One retry about to happen: which, why, and how long it waits first.
public struct RetryEvent: Sendable {
    /// 1-based retry number (the try that follows is number `retry + 1`).
    public var retry: Int
    /// The retryable failure that caused it.
    public var error: Error
    /// Seconds waited before the retry.
    public var delaySeconds: Double
}

/// Where retries get their waits and randomness; tests inject both to be exact and instant.
public struct RetryClock: Sendable {
    /// Waits this many seconds.
    public var sleep: @Sendable (Double) -> Void
    /// A random number in 0..<1.
    public var random: @Sendable () -> Double

    /// Real sleeping and the system random source.
    public static let live = RetryClock(sleep: { if $0 > 0 { Thread.sleep(forTimeInterval: $0) } },
                                        random: { Double.random(in: 0..<1) })

    /// Creates a clock.
    public init(sleep: @escaping @Sendable (Double) -> Void, random: @escaping @Sendable () -> Double) {
        self.sleep = sleep
        self.random = random
    }
}

extension RetryPolicy {
    /// Runs `body`, retrying it while it throws a `retryableInfrastructure` error and tries remain;
    /// `onRetry` hears of each retry before its wait. Any other error, or the last retryable one when
    /// the tries run out, is rethrown unchanged.
    public func run<T>(clock: RetryClock = .live, onRetry: (RetryEvent) -> Void = { _ in },
                       _ body: () throws -> T) throws -> T {
        var tries = 0
        while true {
            tries += 1
            do {
                return try body()
            } catch {
                guard tries < maxAttempts, FailureClass.of(error) == .retryableInfrastructure else { throw error }
                let retryAfter = (error as? ClassifiedError)?.retryAfterSeconds
                let wait = delay(beforeRetry: tries, random: clock.random(), retryAfter: retryAfter)
                onRetry(RetryEvent(retry: tries, error: error, delaySeconds: wait))
                clock.sleep(wait)
            }
        }
    }
}
