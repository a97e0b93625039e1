import FMCore

/// A check on one argument of a tool call (Apple's `ArgumentMatcher`); every matcher requires the key.
///
/// `argumentName` is a top-level key of the call's arguments, or a JSON pointer (`/address/city`)
/// for a nested one.
public enum ArgumentMatcher: Codable, Equatable, Sendable {
    /// The value equals `value` (JSON value equality).
    case exact(argumentName: String, value: GeneratedContent)
    /// The key is present, with any value.
    case keyOnly(argumentName: String)
    /// The value equals one of `allowedValues`.
    case oneOf(argumentName: String, allowedValues: [GeneratedContent])
    /// The value is a number within the inclusive bounds (a nil bound is open).
    case range(argumentName: String, minimum: Double?, maximum: Double?)
    /// The value is a string with a match for the regular expression.
    case pattern(argumentName: String, regex: String)
    /// The value is a string containing `substring`.
    case contains(argumentName: String, substring: String)
    /// The value is a string starting with `prefix`.
    case hasPrefix(argumentName: String, prefix: String)
    /// The value is a string ending with `suffix`.
    case hasSuffix(argumentName: String, suffix: String)
    /// A judge model decides whether the value satisfies `criteria`.
    case naturalLanguage(argumentName: String, criteria: String)

    /// The argument this matcher checks.
    public var argumentName: String {
        switch self {
        case .exact(let name, _), .keyOnly(let name), .oneOf(let name, _), .range(let name, _, _),
             .pattern(let name, _), .contains(let name, _), .hasPrefix(let name, _), .hasSuffix(let name, _),
             .naturalLanguage(let name, _):
            return name
        }
    }

    /// The matcher's keyword as written in suites (`exact`, `keyOnly`, …).
    public var keyword: String {
        switch self {
        case .exact: return "exact"
        case .keyOnly: return "keyOnly"
        case .oneOf: return "oneOf"
        case .range: return "range"
        case .pattern: return "pattern"
        case .contains: return "contains"
        case .hasPrefix: return "hasPrefix"
        case .hasSuffix: return "hasSuffix"
        case .naturalLanguage: return "naturalLanguage"
        }
    }

    /// The matcher keywords suites may use.
    public static let keywords = ["exact", "keyOnly", "oneOf", "range", "pattern", "contains", "hasPrefix",
                                  "hasSuffix", "naturalLanguage"]

    /// Why this matcher can never work (a regex that does not compile, an empty range), or nil.
    public var problem: String? {
        switch self {
        case .pattern(let name, let regex):
            do { _ = try Regex(regex) } catch { return "argument '\(name)': pattern '\(regex)' does not compile: \(error)" }
            return nil
        case .range(let name, let minimum, let maximum):
            if minimum == nil, maximum == nil { return "argument '\(name)': range needs minimum, maximum or both" }
            if let minimum, let maximum, minimum > maximum {
                return "argument '\(name)': range minimum \(formatScore(minimum)) is above maximum \(formatScore(maximum))"
            }
            return nil
        case .oneOf(let name, let values) where values.isEmpty:
            return "argument '\(name)': oneOf needs at least one allowed value"
        default:
            return nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case argument, exact, keyOnly, oneOf, range, pattern, contains, hasPrefix, hasSuffix, naturalLanguage
    }

    private struct Bounds: Codable {
        var minimum: Double?
        var maximum: Double?
    }

    /// Decodes `{"argument": NAME, KEYWORD: PAYLOAD}` with exactly one keyword.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .argument)
        let present = container.allKeys.filter { $0 != .argument }
        guard present.count == 1, let key = present.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "argument matcher for '\(name)' needs exactly one of: \(Self.keywords.joined(separator: ", "))"))
        }
        switch key {
        case .exact: self = .exact(argumentName: name, value: try container.decode(GeneratedContent.self, forKey: key))
        case .keyOnly: self = .keyOnly(argumentName: name)
        case .oneOf: self = .oneOf(argumentName: name, allowedValues: try container.decode([GeneratedContent].self, forKey: key))
        case .range:
            let bounds = try container.decode(Bounds.self, forKey: key)
            self = .range(argumentName: name, minimum: bounds.minimum, maximum: bounds.maximum)
        case .pattern: self = .pattern(argumentName: name, regex: try container.decode(String.self, forKey: key))
        case .contains: self = .contains(argumentName: name, substring: try container.decode(String.self, forKey: key))
        case .hasPrefix: self = .hasPrefix(argumentName: name, prefix: try container.decode(String.self, forKey: key))
        case .hasSuffix: self = .hasSuffix(argumentName: name, suffix: try container.decode(String.self, forKey: key))
        case .naturalLanguage:
            self = .naturalLanguage(argumentName: name, criteria: try container.decode(String.self, forKey: key))
        case .argument:
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'argument' names the argument; add a matcher keyword")
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(argumentName, forKey: .argument)
        switch self {
        case .exact(_, let value): try container.encode(value, forKey: .exact)
        case .keyOnly: try container.encode(true, forKey: .keyOnly)
        case .oneOf(_, let values): try container.encode(values, forKey: .oneOf)
        case .range(_, let minimum, let maximum): try container.encode(Bounds(minimum: minimum, maximum: maximum), forKey: .range)
        case .pattern(_, let regex): try container.encode(regex, forKey: .pattern)
        case .contains(_, let substring): try container.encode(substring, forKey: .contains)
        case .hasPrefix(_, let prefix): try container.encode(prefix, forKey: .hasPrefix)
        case .hasSuffix(_, let suffix): try container.encode(suffix, forKey: .hasSuffix)
        case .naturalLanguage(_, let criteria): try container.encode(criteria, forKey: .naturalLanguage)
        }
    }
}
