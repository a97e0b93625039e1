import Foundation

/// A failure the suite author expects and accepts for now (`knownIssue:` on a suite, variant or case),
/// with Swift Testing's `withKnownIssue` semantics: while the case still fails its gate it is reported
/// as a known issue and does not fail the run; once it passes, the case fails so the marker is removed.
public struct KnownIssue: Codable, Hashable, Sendable {
    /// Why the case is expected to fail (the upstream bug, the model's limit).
    public var reason: String
    /// Where the issue is tracked: an http(s) URL.
    public var url: String?
    /// The failures this issue covers: expectation kinds (`equals`), metric names (`toolCalls.percentagePass`)
    /// and error names (`refusal`). A failing attempt is covered when its error is named here, or when every
    /// gating metric it failed is named (by name or by the kind before its first `.`); nil covers any
    /// failure, which a suite is warned about when it loads.
    public var matching: [String]?
    /// Whether the issue reproduces only sometimes: then a passing case is not "no longer reproduces".
    public var intermittent: Bool

    /// Creates a known issue.
    public init(reason: String, url: String? = nil, matching: [String]? = nil, intermittent: Bool = false) {
        self.reason = reason
        self.url = url
        self.matching = matching
        self.intermittent = intermittent
    }

    /// `REASON (URL)`, or the reason alone when there is no URL.
    public var description: String { url.map { "\(reason) (\($0))" } ?? reason }

    /// `REASON (URL) [COVERAGE]`: how every report names the issue.
    public var summary: String { "\(description) [\(coverage)]" }

    /// What the issue covers, for every report: `matching refusal, equals` or `matching any failure`, and
    /// `, intermittent`.
    public var coverage: String {
        let what = matching.map { "matching " + $0.joined(separator: ", ") } ?? "matching any failure"
        return intermittent ? what + ", intermittent" : what
    }

    /// Whether a failing attempt that ended in the error `errorName` (nil: none) and failed `metrics` (its
    /// gating metrics that did not hold) is covered; nil when it is, else the first failure it does not cover.
    public func uncoveredFailure(errorName: String?, failingMetrics metrics: [String]) -> String? {
        guard let matching else { return nil }
        if let errorName, matching.contains(errorName) { return nil }
        if metrics.isEmpty { return errorName ?? "a failure with no failing metric" }
        return metrics.first { name in
            !matching.contains(name) && !matching.contains(String(name.prefix { $0 != "." }))
        }
    }

    private enum CodingKeys: String, CodingKey { case reason, url, matching, intermittent }

    /// Decodes `{reason, url?, matching?, intermittent?}` (results written before matching carry neither).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try container.decode(String.self, forKey: .reason)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        matching = try container.decodeIfPresent([String].self, forKey: .matching)
        intermittent = try container.decodeIfPresent(Bool.self, forKey: .intermittent) ?? false
    }

    /// Encodes what is set: `intermittent` only when true, so issues without it encode as before.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(matching, forKey: .matching)
        if intermittent { try container.encode(true, forKey: .intermittent) }
    }

    /// The problem with `url` as a tracking link, or nil when it is an absolute http or https URL with a host.
    public static func urlProblem(_ url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return "knownIssue url '\(url)' is not a URL; write an absolute http(s) link such as https://github.com/OWNER/REPO/issues/1"
        }
        guard scheme == "http" || scheme == "https" else {
            return "knownIssue url '\(url)' must be an http or https link, not \(scheme):"
        }
        guard let host = parsed.host, !host.isEmpty else {
            return "knownIssue url '\(url)' has no host; write an absolute link such as https://github.com/OWNER/REPO/issues/1"
        }
        return nil
    }
}
