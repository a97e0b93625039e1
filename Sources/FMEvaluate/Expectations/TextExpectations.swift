import FMCore

/// `equals`: the output (or the value at `path`) is exactly `value`.
///
/// Text output compares as a string with surrounding whitespace trimmed; structured output compares
/// as JSON values (key order does not matter, numbers by value).
public struct EqualsExpectation: Codable, Equatable, Sendable {
    /// The expected value.
    public var value: GeneratedContent
    /// JSON pointer into structured output (`/city`); nil compares the whole output.
    public var path: String?
    /// Compare strings without regard to letter case.
    public var ignoreCase: Bool

    /// Creates an equality check.
    public init(_ value: GeneratedContent, path: String? = nil, ignoreCase: Bool = false) {
        self.value = value
        self.path = path
        self.ignoreCase = ignoreCase
    }

    private enum CodingKeys: String, CodingKey { case value, path, ignoreCase }

    /// Decodes `{"value", "path"?, "ignoreCase"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(GeneratedContent.self, forKey: .value)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        ignoreCase = try container.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false
    }
}

/// `oneOf`: the output (or the value at `path`) equals one of `values`.
public struct OneOfExpectation: Codable, Equatable, Sendable {
    /// The accepted values.
    public var values: [GeneratedContent]
    /// JSON pointer into structured output; nil compares the whole output.
    public var path: String?
    /// Compare strings without regard to letter case.
    public var ignoreCase: Bool

    /// Creates a membership check.
    public init(_ values: [GeneratedContent], path: String? = nil, ignoreCase: Bool = false) {
        self.values = values
        self.path = path
        self.ignoreCase = ignoreCase
    }

    private enum CodingKeys: String, CodingKey { case values, path, ignoreCase }

    /// Decodes `{"values", "path"?, "ignoreCase"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = try container.decode([GeneratedContent].self, forKey: .values)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        ignoreCase = try container.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false
    }
}

/// `contains`: the output text (or the value at `path`) contains every one of `substrings`.
public struct ContainsExpectation: Codable, Equatable, Sendable {
    /// Substrings that must all occur.
    public var substrings: [String]
    /// JSON pointer into structured output; nil searches the whole output text.
    public var path: String?
    /// Search without regard to letter case.
    public var ignoreCase: Bool

    /// Creates a substring check.
    public init(_ substrings: [String], path: String? = nil, ignoreCase: Bool = false) {
        self.substrings = substrings
        self.path = path
        self.ignoreCase = ignoreCase
    }

    /// Why this check cannot work as written: no substrings, or an empty one (it would never pass).
    public var problems: [String] {
        if substrings.isEmpty { return ["contains needs at least one substring"] }
        return substrings.indices.filter { substrings[$0].isEmpty }.map { index in
            "substring \(index + 1) of \(substrings.count) is empty, which no output can be checked for; write the text to look for or remove it"
        }
    }

    private enum CodingKeys: String, CodingKey { case substrings, path, ignoreCase }

    /// Decodes `{"substrings", "path"?, "ignoreCase"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        substrings = try container.decode([String].self, forKey: .substrings)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        ignoreCase = try container.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false
    }
}

/// `regex`: the output text (or the value at `path`) has a match for `pattern`.
public struct RegexExpectation: Codable, Equatable, Sendable {
    /// A Swift `Regex` pattern; anchor it with `^…$` to require a whole-text match.
    public var pattern: String
    /// JSON pointer into structured output; nil matches against the whole output text.
    public var path: String?
    /// Match without regard to letter case.
    public var ignoreCase: Bool

    /// Creates a regular-expression check.
    public init(_ pattern: String, path: String? = nil, ignoreCase: Bool = false) {
        self.pattern = pattern
        self.path = path
        self.ignoreCase = ignoreCase
    }

    /// Why `pattern` does not compile, or nil when it does (suite validation reports this).
    public var patternProblem: String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "regex '\(pattern)' does not compile: \(error)"
        }
    }

    private enum CodingKeys: String, CodingKey { case pattern, path, ignoreCase }

    /// Decodes `{"pattern", "path"?, "ignoreCase"?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pattern = try container.decode(String.self, forKey: .pattern)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        ignoreCase = try container.decodeIfPresent(Bool.self, forKey: .ignoreCase) ?? false
    }
}
