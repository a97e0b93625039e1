import FMCore
import FMEmbedded
import Foundation

extension EmbeddedEngine {
    /// The environment variable giving the prefix cache's budget in MiB when the engine option does not.
    public static let prefixCacheEnvironmentVariable = "FMEVAL_PREFIX_CACHE_MB"

    /// The `prefixCacheMB` option: the prefix cache's memory budget in MiB (0: reuse only the previous request's prefix).
    static let prefixCacheOption = EngineOptionSpec(
        "prefixCacheMB", .integer,
        "MiB of earlier prompts' keys and values kept for reuse (0: only the previous request's); default $\(prefixCacheEnvironmentVariable), else \(PrefixCache.defaultBudgetBytes >> 20)")

    /// What the prefix cache has done since the engine loaded: lookups, prompt tokens reused and
    /// restored, bytes held, evictions (`hitRate` is reused over prompt tokens).
    public var prefixCacheStats: PrefixCacheStats { generator.prefixCacheStats }

    /// The prefix cache budget in bytes: the `prefixCacheMB` option, else `FMEVAL_PREFIX_CACHE_MB`,
    /// else `PrefixCache.defaultBudgetBytes`; a problem names the option or the variable.
    static func prefixCacheBytes(options: [String: GeneratedContent],
                                 environment: [String: String]) -> Result<Int, PrefixCacheBudgetError> {
        if let value = options[prefixCacheOption.name] {
            guard let megabytes = value.intValue, megabytes >= 0, megabytes <= maxPrefixCacheMB else {
                return .failure(PrefixCacheBudgetError(problem: EngineOptionProblem(option: prefixCacheOption.name, message:
                    "engine option 'prefixCacheMB' of engine 'embedded' must be a whole number of MiB from 0 to \(maxPrefixCacheMB), not \(value.jsonString); use 0 to turn the cache off")))
            }
            return .success(megabytes << 20)
        }
        if let text = environment[prefixCacheEnvironmentVariable] {
            guard let megabytes = Int(text.trimmingCharacters(in: .whitespaces)), megabytes >= 0, megabytes <= maxPrefixCacheMB else {
                return .failure(PrefixCacheBudgetError(problem: EngineOptionProblem(option: nil, message:
                    "\(prefixCacheEnvironmentVariable) must be a whole number of MiB from 0 to \(maxPrefixCacheMB), not '\(text)'; unset it for the default (\(PrefixCache.defaultBudgetBytes >> 20)) or use 0 to turn the cache off")))
            }
            return .success(megabytes << 20)
        }
        return .success(PrefixCache.defaultBudgetBytes)
    }

    /// The largest budget accepted, in MiB (1 TiB; more is a typo, not a plan).
    static let maxPrefixCacheMB = 1 << 20
}

/// A prefix cache budget that cannot work: the option or the environment variable, and what to do.
struct PrefixCacheBudgetError: Error {
    /// The problem, naming the option (or none, for the environment variable).
    let problem: EngineOptionProblem
}
