import Foundation

/// How a suite's command tools and command evaluators run: their environment, the secrets redacted from
/// everything they print, and how much tool output is kept.
///
/// Children get only the variables named here: `PATH`, `HOME`, `LANG`, `LC_*`, `TMPDIR` and `TZ` by
/// default, the ones `pass` names (from fmeval's environment), and `set`'s values.
public struct CommandPolicy: Hashable, Sendable, Encodable {
    /// The variables every child gets from fmeval's environment (`*` ends a prefix).
    public static let defaultPass = ["PATH", "HOME", "LANG", "LC_*", "TMPDIR", "TZ"]
    /// Tool output kept by default, in bytes (64 KiB).
    public static let defaultToolOutputLimit = ChildProcess.defaultOutputLimit

    /// Further variables taken from fmeval's environment (`NAME` or `PREFIX*`).
    public var pass: [String]
    /// Variables set to fixed values (these win over passed ones).
    public var set: [String: String]
    /// Variables whose values are redacted from all output, whatever their names.
    public var secrets: [String]
    /// The most bytes of a tool's output kept (the rest is cut and the cut reported).
    public var toolOutputLimit: Int

    /// Creates a policy; the defaults are fmeval's.
    public init(pass: [String] = [], set: [String: String] = [:], secrets: [String] = [],
                toolOutputLimit: Int = CommandPolicy.defaultToolOutputLimit) {
        self.pass = pass
        self.set = set
        self.secrets = secrets
        self.toolOutputLimit = toolOutputLimit
    }

    /// The child's whole environment, built from `parent` (fmeval's environment).
    public func environment(from parent: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        let patterns = Self.defaultPass + pass
        var result: [String: String] = [:]
        for (name, value) in parent where patterns.contains(where: { Self.matches(name, $0) }) { result[name] = value }
        for (name, value) in set { result[name] = value }
        return result
    }

    /// The redactor for children run under this policy with fmeval's environment `parent`.
    public func redactor(parent: [String: String] = ProcessInfo.processInfo.environment) -> SecretRedactor {
        var found: [String: String] = [:]
        for (name, value) in parent.merging(set, uniquingKeysWith: { _, new in new }) where SecretRedactor.looksSecret(name) && value.utf8.count >= 8 {
            found[name] = value
        }
        for name in secrets {
            if let value = set[name] ?? parent[name], !value.isEmpty { found[name] = value }
        }
        return SecretRedactor(found)
    }

    /// Whether `name` matches `pattern` (`NAME`, or `PREFIX*`).
    static func matches(_ name: String, _ pattern: String) -> Bool {
        pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
    }

    /// Whether `name` is a valid pass pattern: a variable name, optionally ending in `*`.
    public static func isValidPattern(_ name: String) -> Bool {
        isValidName(name.hasSuffix("*") ? String(name.dropLast()) : name) || name == "*"
    }

    /// Whether `name` is a valid environment variable name (letters, digits, `_`, not starting with a digit).
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    private enum CodingKeys: String, CodingKey { case pass, set, secrets, toolOutputLimit }

    /// Encodes the names and the limit; `set` values are written as names only, so no secret lands in a file.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pass, forKey: .pass)
        try container.encode(set.keys.sorted(), forKey: .set)
        try container.encode(secrets, forKey: .secrets)
        try container.encode(toolOutputLimit, forKey: .toolOutputLimit)
    }
}

/// Replaces secret values with `[redacted NAME]` in text that enters fmeval's results.
///
/// Secrets are the values (8 bytes or more) of variables whose names contain KEY, TOKEN, SECRET,
/// PASSWORD or CREDENTIAL, and of every variable a suite lists under `secrets`.
public struct SecretRedactor: Hashable, Sendable {
    /// (name, value) pairs, longest value first, so a secret inside another is never half-replaced.
    let secrets: [Secret]

    /// One secret.
    struct Secret: Hashable, Sendable {
        let name: String
        let value: Data
    }

    /// A redactor for the values in `secrets` (name → value).
    public init(_ secrets: [String: String]) {
        self.secrets = secrets.map { Secret(name: $0.key, value: Data($0.value.utf8)) }
            .sorted { ($0.value.count, $1.name) > ($1.value.count, $0.name) }
    }

    /// Whether a variable named `name` holds a secret by its name.
    public static func looksSecret(_ name: String) -> Bool {
        let upper = name.uppercased()
        return ["KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL"].contains { upper.contains($0) }
    }

    /// The length of the longest secret, in bytes.
    public var longestSecret: Int { secrets.first?.value.count ?? 0 }

    /// The names whose values are redacted, sorted.
    public var names: [String] { secrets.map(\.name).sorted() }

    /// `data` with every secret value replaced.
    public func redact(_ data: Data) -> Data {
        var result = data
        for secret in secrets where !secret.value.isEmpty {
            guard result.range(of: secret.value) != nil else { continue }
            let marker = Data("[redacted \(secret.name)]".utf8)
            var output = Data()
            var rest = result[...]
            while let found = rest.range(of: secret.value) {
                output.append(rest[rest.startIndex ..< found.lowerBound])
                output.append(marker)
                rest = rest[found.upperBound...]
            }
            output.append(rest)
            result = output
        }
        return result
    }

    /// `text` with every secret value replaced.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        return String(decoding: redact(Data(text.utf8)), as: UTF8.self)
    }
}
