import Foundation

/// A failure the suite author expects and accepts for now (`knownIssue:` on a suite, variant or case),
/// with Swift Testing's `withKnownIssue` semantics: while the case still fails its gate it is reported
/// as a known issue and does not fail the run; once it passes, the case fails so the marker is removed.
public struct KnownIssue: Codable, Hashable, Sendable {
    /// Why the case is expected to fail (the upstream bug, the model's limit).
    public var reason: String
    /// Where the issue is tracked: an http(s) URL.
    public var url: String?

    /// Creates a known issue.
    public init(reason: String, url: String? = nil) {
        self.reason = reason
        self.url = url
    }

    /// `REASON (URL)`, or the reason alone when there is no URL.
    public var description: String { url.map { "\(reason) (\($0))" } ?? reason }

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
