import FMCore

/// The versioned results of one `fmeval run` (docs/results-format.md): what every report reads.
///
/// Version 2 (adds the `knownIssue` case status and field). Version 1 documents read as version 2
/// without known issues; later versions only add fields; readers ignore keys they do not know.
public struct RunResult: Codable, Sendable {
    /// The results format version this build writes.
    public static let currentVersion = 2

    /// The results format version of this document.
    public var version: Int
    /// When, how and where the run happened.
    public var run: RunInfo
    /// Counts over every case.
    public var summary: RunSummary
    /// One entry per case × variant, in suite order (carried cases of a resumed run first).
    public var cases: [CaseResult]
    /// Cases selected out by `--filter`, for reports to show as skipped.
    public var skipped: [SkippedCase]
    /// Confusion matrices for suites whose cases expect enum labels.
    public var classifications: [SuiteClassification]

    /// Creates a results document; `summary` is computed from `cases`.
    public init(run: RunInfo, cases: [CaseResult], skipped: [SkippedCase] = [],
                classifications: [SuiteClassification] = []) {
        self.version = RunResult.currentVersion
        self.run = run
        self.cases = cases
        self.summary = RunSummary(cases: cases, skipped: skipped.count)
        self.skipped = skipped
        self.classifications = classifications
    }

    /// The process exit code the results call for: 3 when a case errored, else 1 when a gate failed,
    /// a determinism rerun diverged or a verdict depended on the session's history, else 0.
    public var exitCode: Int32 {
        if summary.errored > 0 { return ExitStatus.infrastructure }
        if summary.gatesFailed > 0 || summary.nondeterministic > 0 || summary.historyDependent > 0 {
            return ExitStatus.failed
        }
        return ExitStatus.ok
    }
}

/// When, how and where a run happened.
public struct RunInfo: Codable, Sendable {
    /// A unique id for this run (UUID).
    public var id: String
    /// Start time, ISO 8601 UTC.
    public var startedAt: String
    /// Finish time, ISO 8601 UTC (nil while the run is still going or was interrupted).
    public var finishedAt: String?
    /// Wall-clock duration in milliseconds (nil until finished).
    public var durationMs: Double?
    /// The suite files or folders given to `fmeval run`.
    public var paths: [String]
    /// The command-line arguments after `fmeval run`.
    public var arguments: [String]
    /// fmeval version, engine identity, OS and CPU.
    public var fingerprint: Fingerprint
    /// The variants run (empty: the suites' base configuration only).
    public var variants: [String]
    /// The `--filter` expression, when given.
    public var filter: String?
    /// The `--shard I/N` selection, when given (for example `2/4`).
    public var shard: String?
    /// How the shard's cases were chosen (balance, scheduler variables, the split's digest); absent for an
    /// unsharded run and in older files.
    public var shardAssignment: ShardAssignmentInfo?
    /// The `--repeat` override, when given.
    public var repeatOverride: Int?
    /// Whether `--check-determinism` reran greedy attempts.
    public var checkDeterminism: Bool
    /// The results file this run resumed, when `--resume` was used.
    public var resumedFrom: String?
    /// For a merged run, the ids of the runs merged into it (`fmeval merge`); a history that holds them
    /// keeps the merged run instead, so each case counts once. Absent for other runs and in older files.
    public var mergedFrom: [String]?
    /// How `--cache FILE` answered this run's engine calls; absent without `--cache` and in older files.
    public var cache: CacheUse?

    /// Creates run information.
    public init(id: String, startedAt: String, finishedAt: String? = nil, durationMs: Double? = nil,
                paths: [String] = [], arguments: [String] = [], fingerprint: Fingerprint,
                variants: [String] = [], filter: String? = nil, shard: String? = nil, repeatOverride: Int? = nil,
                checkDeterminism: Bool = false, resumedFrom: String? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.durationMs = durationMs
        self.paths = paths
        self.arguments = arguments
        self.fingerprint = fingerprint
        self.variants = variants
        self.filter = filter
        self.shard = shard
        self.repeatOverride = repeatOverride
        self.checkDeterminism = checkDeterminism
        self.resumedFrom = resumedFrom
    }
}

/// The environment a run happened in: enough to tell whether two runs are comparable.
public struct Fingerprint: Codable, Hashable, Sendable {
    /// fmeval version (`FMEvalVersion.current`).
    public var fmevalVersion: String
    /// The default engine's name, model and model hash.
    public var engine: EngineIdentity
    /// Operating system name and version.
    public var os: String
    /// CPU model name.
    public var cpu: String
    /// Logical CPU count.
    public var cpuCount: Int
    /// Machine architecture (for example `x86_64`).
    public var architecture: String
    /// Facts about what served the default engine that are not part of its identity (for `openai`:
    /// `baseURLHost`, `serverModel`, `systemFingerprint`); absent for engines without them and in older files.
    public var engineDetails: [String: String]?
    /// The recorded transcripts the run scored (cases of suites with `transcripts:`), each with its
    /// SHA-256; absent when no case came from a transcript, and in older files.
    public var recordedTranscripts: [RecordedSource]?

    /// Creates a fingerprint from its parts.
    public init(fmevalVersion: String, engine: EngineIdentity, os: String, cpu: String, cpuCount: Int,
                architecture: String) {
        self.fmevalVersion = fmevalVersion
        self.engine = engine
        self.os = os
        self.cpu = cpu
        self.cpuCount = cpuCount
        self.architecture = architecture
    }
}

/// Counts over every case of a run.
public struct RunSummary: Codable, Hashable, Sendable {
    /// Cases run.
    public var total: Int
    /// Cases whose every attempt passed.
    public var passed: Int
    /// Cases whose gate does not hold (without errors).
    public var failed: Int
    /// Cases where some attempts failed but the gate holds.
    public var flaky: Int
    /// Cases with an engine or infrastructure error.
    public var errored: Int
    /// Cases that fail their gate as their `knownIssue` expects (not failures).
    public var knownIssues: Int
    /// Cases selected out by `--filter` (not in `total`).
    public var skipped: Int
    /// Cases that fail the run (failed and errored; a known issue that no longer reproduces is failed).
    public var gatesFailed: Int
    /// Attempts run over all cases.
    public var attempts: Int
    /// Greedy cases whose rerun diverged under `--check-determinism`.
    public var nondeterministic: Int
    /// Cases whose verdict changed in a session reused after other cases (`contamination`; 0 in older files).
    public var historyDependent: Int
    /// Attempts answered from an identical earlier greedy attempt instead of the engine (0 in older files).
    public var reusedAttempts: Int
    /// Input tokens over the attempts the engine answered (0 in older files).
    public var inputTokens: Int
    /// Of `inputTokens`, those served from the engine's cache (0 in older files).
    public var cachedInputTokens: Int
    /// `cachedInputTokens / inputTokens`; nil when no input tokens were counted (and in older files).
    public var cacheHitRate: Double?

    /// Counts `cases`, with `skipped` cases selected out.
    public init(cases: [CaseResult], skipped: Int = 0) {
        total = cases.count
        passed = cases.filter { $0.status == .passed }.count
        failed = cases.filter { $0.status == .failed }.count
        flaky = cases.filter { $0.status == .flaky }.count
        errored = cases.filter { $0.status == .error }.count
        knownIssues = cases.filter { $0.status == .knownIssue }.count
        self.skipped = skipped
        gatesFailed = cases.filter(\.failsRun).count
        attempts = cases.reduce(0) { $0 + $1.attempts.count }
        nondeterministic = cases.filter(\.diverged).count
        historyDependent = cases.filter(\.historyDependent).count
        let computed = cases.flatMap(\.attempts).filter { $0.reusedFrom == nil }
        reusedAttempts = attempts - computed.count
        inputTokens = computed.reduce(0) { $0 + $1.usage.inputTokens }
        cachedInputTokens = computed.reduce(0) { $0 + $1.usage.cachedInputTokens }
        cacheHitRate = RunSummary.hitRate(cached: cachedInputTokens, of: inputTokens)
    }

    /// `cached / total`, or nil when `total` is 0.
    public static func hitRate(cached: Int, of total: Int) -> Double? {
        total > 0 ? Double(cached) / Double(total) : nil
    }
}

extension RunSummary {
    /// Reads a summary; `knownIssues`, absent from version 1 documents, reads as 0.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        total = try container.decode(Int.self, forKey: .total)
        passed = try container.decode(Int.self, forKey: .passed)
        failed = try container.decode(Int.self, forKey: .failed)
        flaky = try container.decode(Int.self, forKey: .flaky)
        errored = try container.decode(Int.self, forKey: .errored)
        knownIssues = try container.decodeIfPresent(Int.self, forKey: .knownIssues) ?? 0
        skipped = try container.decode(Int.self, forKey: .skipped)
        gatesFailed = try container.decode(Int.self, forKey: .gatesFailed)
        attempts = try container.decode(Int.self, forKey: .attempts)
        nondeterministic = try container.decode(Int.self, forKey: .nondeterministic)
        historyDependent = try container.decodeIfPresent(Int.self, forKey: .historyDependent) ?? 0
        reusedAttempts = try container.decodeIfPresent(Int.self, forKey: .reusedAttempts) ?? 0
        inputTokens = try container.decodeIfPresent(Int.self, forKey: .inputTokens) ?? 0
        cachedInputTokens = try container.decodeIfPresent(Int.self, forKey: .cachedInputTokens) ?? 0
        cacheHitRate = try container.decodeIfPresent(Double.self, forKey: .cacheHitRate)
    }
}
