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
    /// The value is a number within the inclusive bounds (a nil bound is open), compared exactly.
    case range(argumentName: String, minimum: GeneratedContent?, maximum: GeneratedContent?)
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
    /// The value is an array whose element count is within the inclusive bounds (a nil bound is open).
    case length(argumentName: String, minimum: Int?, maximum: Int?)
    /// `matcher` with modifiers: the argument may be absent, strings compare ignoring case or after normalization.
    indirect case modified(ArgumentMatcher, ArgumentModifiers)

    /// The argument this matcher checks.
    public var argumentName: String {
        switch self {
        case .exact(let name, _), .keyOnly(let name), .oneOf(let name, _), .range(let name, _, _),
             .pattern(let name, _), .contains(let name, _), .hasPrefix(let name, _), .hasSuffix(let name, _),
             .naturalLanguage(let name, _), .length(let name, _, _):
            return name
        case .modified(let matcher, _):
            return matcher.argumentName
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
        case .length: return "length"
        case .modified(let matcher, _): return matcher.keyword
        }
    }

    /// The matcher without its modifiers.
    public var base: ArgumentMatcher {
        if case .modified(let matcher, _) = self { return matcher.base }
        return self
    }

    /// The modifiers in force (none for a plain matcher).
    public var modifiers: ArgumentModifiers {
        if case .modified(_, let modifiers) = self { return modifiers }
        return ArgumentModifiers()
    }

    /// The matcher keywords suites may use.
    public static let keywords = ["exact", "keyOnly", "oneOf", "range", "pattern", "contains", "hasPrefix",
                                  "hasSuffix", "naturalLanguage", "length"]

    /// The modifier keys suites may write beside a matcher keyword.
    public static let modifierKeys = ["optional", "ignoreCase", "normalize", "allowsAdditionalKeys"]

    /// Why this matcher can never work (a regex that does not compile, an empty range), or nil.
    public var problem: String? {
        switch self {
        case .pattern(let name, let regex):
            do { _ = try Regex(regex) } catch { return "argument '\(name)': pattern '\(regex)' does not compile: \(error)" }
            return nil
        case .range(let name, let minimum, let maximum):
            if minimum == nil, maximum == nil { return "argument '\(name)': range needs minimum, maximum or both" }
            for bound in [minimum, maximum].compactMap({ $0 }) where bound.numberValue == nil {
                return "argument '\(name)': range bounds must be numbers, not \(bound.typeName) \(bound.jsonString)"
            }
            if let minimum, let maximum, let order = minimum.numericOrder(to: maximum), order > 0 {
                return "argument '\(name)': range minimum \(minimum.jsonString) is above maximum \(maximum.jsonString)"
            }
            return nil
        case .oneOf(let name, let values) where values.isEmpty:
            return "argument '\(name)': oneOf needs at least one allowed value"
        case .length(let name, let minimum, let maximum):
            if minimum == nil, maximum == nil { return "argument '\(name)': length needs minimum, maximum or both" }
            if let minimum, minimum < 0 { return "argument '\(name)': length minimum \(minimum) must be 0 or more" }
            if let minimum, let maximum, minimum > maximum {
                return "argument '\(name)': length minimum \(minimum) is above maximum \(maximum)"
            }
            return nil
        case .modified(let matcher, let modifiers):
            if let problem = matcher.problem { return problem }
            if case .modified = matcher { return "argument '\(argumentName)': modifiers are given twice" }
            let comparesText = ["exact", "oneOf", "pattern", "contains", "hasPrefix", "hasSuffix"].contains(matcher.keyword)
            if (modifiers.ignoreCase || !modifiers.normalize.isEmpty) && !comparesText {
                return "argument '\(argumentName)': ignoreCase and normalize apply to exact, oneOf, pattern, contains, hasPrefix and hasSuffix, not \(matcher.keyword)"
            }
            if modifiers.allowsAdditionalKeys && !["exact", "oneOf"].contains(matcher.keyword) {
                return "argument '\(argumentName)': allowsAdditionalKeys applies to exact and oneOf (object answers), not \(matcher.keyword)"
            }
            if modifiers.isOptional, case .keyOnly = matcher {
                return "argument '\(argumentName)': keyOnly with optional: true accepts anything; drop the matcher or the optional"
            }
            return nil
        default:
            return nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case argument, exact, keyOnly, oneOf, range, pattern, contains, hasPrefix, hasSuffix, naturalLanguage, length
        case optional, ignoreCase, normalize, allowsAdditionalKeys
    }

    private struct Bounds: Codable {
        var minimum: GeneratedContent?
        var maximum: GeneratedContent?
    }

    private struct Counts: Codable {
        var minimum: Int?
        var maximum: Int?
    }

    /// Decodes `{"argument": NAME, KEYWORD: PAYLOAD}` with exactly one keyword.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .argument)
        let modifierKeys: Set<CodingKeys> = [.optional, .ignoreCase, .normalize, .allowsAdditionalKeys]
        let present = container.allKeys.filter { $0 != .argument && !modifierKeys.contains($0) }
        guard present.count == 1, let key = present.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "argument matcher for '\(name)' needs exactly one of: \(Self.keywords.joined(separator: ", "))"))
        }
        let matcher = try Self.decodeBase(key, name: name, in: container)
        let modifiers = ArgumentModifiers(
            isOptional: try container.decodeIfPresent(Bool.self, forKey: .optional) ?? false,
            ignoreCase: try container.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false,
            normalize: try container.decodeIfPresent([StringNormalization].self, forKey: .normalize) ?? [],
            allowsAdditionalKeys: try container.decodeIfPresent(Bool.self, forKey: .allowsAdditionalKeys) ?? false)
        self = modifiers == ArgumentModifiers() ? matcher : .modified(matcher, modifiers)
    }

    private static func decodeBase(_ key: CodingKeys, name: String, in container: KeyedDecodingContainer<CodingKeys>) throws -> ArgumentMatcher {
        switch key {
        case .exact: return .exact(argumentName: name, value: try container.decode(GeneratedContent.self, forKey: key))
        case .keyOnly:
            guard try container.decode(Bool.self, forKey: key) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "keyOnly must be true (drop the matcher to accept anything)")
            }
            return .keyOnly(argumentName: name)
        case .oneOf: return .oneOf(argumentName: name, allowedValues: try container.decode([GeneratedContent].self, forKey: key))
        case .range:
            let bounds = try container.decode(Bounds.self, forKey: key)
            return .range(argumentName: name, minimum: bounds.minimum, maximum: bounds.maximum)
        case .pattern: return .pattern(argumentName: name, regex: try container.decode(String.self, forKey: key))
        case .contains: return .contains(argumentName: name, substring: try container.decode(String.self, forKey: key))
        case .hasPrefix: return .hasPrefix(argumentName: name, prefix: try container.decode(String.self, forKey: key))
        case .hasSuffix: return .hasSuffix(argumentName: name, suffix: try container.decode(String.self, forKey: key))
        case .naturalLanguage:
            return .naturalLanguage(argumentName: name, criteria: try container.decode(String.self, forKey: key))
        case .length:
            if let exactly = try? container.decode(Int.self, forKey: key) { return .length(argumentName: name, minimum: exactly, maximum: exactly) }
            let counts = try container.decode(Counts.self, forKey: key)
            return .length(argumentName: name, minimum: counts.minimum, maximum: counts.maximum)
        case .argument, .optional, .ignoreCase, .normalize, .allowsAdditionalKeys:
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "'\(key.rawValue)' is not a matcher; add a matcher keyword")
        }
    }

    /// Encodes the shape `init(from:)` reads.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(argumentName, forKey: .argument)
        try encodeCheck(into: &container)
        let modifiers = self.modifiers
        if modifiers.isOptional { try container.encode(true, forKey: .optional) }
        if modifiers.ignoreCase { try container.encode(true, forKey: .ignoreCase) }
        if !modifiers.normalize.isEmpty { try container.encode(modifiers.normalize, forKey: .normalize) }
        if modifiers.allowsAdditionalKeys { try container.encode(true, forKey: .allowsAdditionalKeys) }
    }

    /// Encodes the matcher keyword and its payload.
    private func encodeCheck(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        switch self {
        case .modified(let matcher, _): try matcher.encodeCheck(into: &container)
        case .exact(_, let value): try container.encode(value, forKey: .exact)
        case .keyOnly: try container.encode(true, forKey: .keyOnly)
        case .oneOf(_, let values): try container.encode(values, forKey: .oneOf)
        case .range(_, let minimum, let maximum): try container.encode(Bounds(minimum: minimum, maximum: maximum), forKey: .range)
        case .pattern(_, let regex): try container.encode(regex, forKey: .pattern)
        case .contains(_, let substring): try container.encode(substring, forKey: .contains)
        case .hasPrefix(_, let prefix): try container.encode(prefix, forKey: .hasPrefix)
        case .hasSuffix(_, let suffix): try container.encode(suffix, forKey: .hasSuffix)
        case .naturalLanguage(_, let criteria): try container.encode(criteria, forKey: .naturalLanguage)
        case .length(_, let minimum, let maximum): try container.encode(Counts(minimum: minimum, maximum: maximum), forKey: .length)
        }
    }
}

/// How a matcher treats an argument beyond its check: whether it may be absent, and how strings compare.
public struct ArgumentModifiers: Codable, Equatable, Sendable {
    /// The argument may be absent; when present, the matcher must hold.
    public var isOptional: Bool
    /// Strings compare without regard to case (both the expected and the generated text).
    public var ignoreCase: Bool
    /// What is removed from both sides before strings compare.
    public var normalize: [StringNormalization]
    /// For object answers (`exact`, `oneOf`): the value may have keys the answer does not list, at any depth;
    /// false (the default) means no other keys.
    public var allowsAdditionalKeys: Bool

    /// Modifiers; the defaults change nothing.
    public init(isOptional: Bool = false, ignoreCase: Bool = false, normalize: [StringNormalization] = [],
                allowsAdditionalKeys: Bool = false) {
        self.isOptional = isOptional
        self.ignoreCase = ignoreCase
        self.normalize = normalize
        self.allowsAdditionalKeys = allowsAdditionalKeys
    }

    /// Whether `value` matches the expected `answer`: strings compared normalized, arrays element by element,
    /// objects key by key (with no other keys unless `allowsAdditionalKeys`), other values by equality. A number
    /// that is a list item is also typed as BFCL types nested list items: an integer (`1`) does not match a
    /// decimal (`1.0`) or the reverse, while outside lists `1` matches `1.0` (BFCL's int-to-float reading).
    public func matches(_ value: GeneratedContent, answer: GeneratedContent) -> Bool {
        matches(value, answer: answer, inList: false)
    }

    private func matches(_ value: GeneratedContent, answer: GeneratedContent, inList: Bool) -> Bool {
        switch (value.kind, answer.kind) {
        case (.structure(let have, _), .structure(let want, _)):
            guard allowsAdditionalKeys || Set(have.keys) == Set(want.keys) else { return false }
            return want.allSatisfy { key, expected in have[key].map { matches($0, answer: expected, inList: false) } ?? false }
        case (.array(let have), .array(let want)):
            return have.count == want.count && zip(have, want).allSatisfy { matches($0, answer: $1, inList: true) }
        case (.string(let have), .string(let want)):
            return normalized(have) == normalized(want)
        case (.number, .number) where inList:
            return value == answer && value.isDecimal == answer.isDecimal
        default:
            return value == answer
        }
    }

    /// Whether strings are rewritten before they compare.
    public var rewritesStrings: Bool { ignoreCase || !normalize.isEmpty }

    /// `text` as the matcher compares it: lowercased for `ignoreCase`, with whitespace and punctuation removed as asked.
    public func normalized(_ text: String) -> String {
        var result = text
        if normalize.contains(.whitespace) { result.unicodeScalars.removeAll { $0.properties.isWhitespace } }
        if normalize.contains(.punctuation) {
            result.unicodeScalars.removeAll { StringNormalization.punctuationRemoved.contains($0) }
            result = result.replacingOccurrences(of: "'", with: "\"")
        }
        return ignoreCase ? result.lowercased() : result
    }

    /// `value` with every string inside it (not object keys) normalized, for comparing objects and lists.
    public func normalized(_ value: GeneratedContent) -> GeneratedContent {
        guard rewritesStrings else { return value }
        switch value.kind {
        case .string(let text): return GeneratedContent(normalized(text))
        case .array(let elements): return GeneratedContent(elements.map(normalized))
        case .structure: return GeneratedContent(properties: (value.orderedProperties ?? []).map { ($0.key, normalized($0.value)) })
        case .null, .bool, .number: return value
        }
    }
}

/// A rewrite applied to strings before an argument matcher compares them.
public enum StringNormalization: String, Codable, CaseIterable, Sendable {
    /// Remove every whitespace character (spaces, tabs, line breaks).
    case whitespace
    /// Remove the punctuation BFCL's AST checker removes (`, . / - _ * ^`) and read `'` as `"`, as it does.
    case punctuation

    /// The characters `punctuation` removes: exactly those of BFCL's `standardize_string` other than the
    /// space (which `whitespace` removes). `#`, `?`, `@` and the rest stay, so `C#` is not `C`.
    public static let punctuationRemoved: Set<Unicode.Scalar> = [",", ".", "/", "-", "_", "*", "^"]
}
