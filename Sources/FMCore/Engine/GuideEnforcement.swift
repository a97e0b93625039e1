/// Which guides a constrained decoder enforces: `strict` enforces every guide of the dialect (fmeval's
/// default); `device` enforces what the on-device Foundation Models decoder is documented to enforce.
///
/// Under `device`, a string `.anyOf` (an `enum`, or an `anyOf` of string `enum`s) inside tool arguments
/// is not enforced (decoded as a free string, the forum report), a `pattern` must be simple (see
/// `RegexPattern.isSimple`) or the request fails with `unsupportedGenerationGuide`, and the loop guards
/// are off unless a suite sets them.
public enum GuideEnforcement: String, Codable, Hashable, Sendable, CaseIterable {
    /// What the on-device decoder enforces.
    case device
    /// Every guide of the dialect (the default).
    case strict
}

/// The grammar's loop guards: limits that narrow what a small greedy model may say so that it cannot
/// repeat itself until `maximumResponseTokens`. Every document they allow still satisfies the schema.
public struct LoopGuards: Codable, Hashable, Sendable {
    /// After this many bytes inside a free string (no enum or pattern), only a closing quote may follow.
    public var maximumStringBytes: Int?
    /// The most elements of an array whose schema sets no `maxItems` (never below its `minItems`).
    public var maximumUnboundedItems: Int?
    /// How many times a definition may contain itself.
    public var maximumRecursionDepth: Int?

    /// Guards with the given limits (nil: that guard is off).
    public init(maximumStringBytes: Int? = nil, maximumUnboundedItems: Int? = nil, maximumRecursionDepth: Int? = nil) {
        self.maximumStringBytes = maximumStringBytes
        self.maximumUnboundedItems = maximumUnboundedItems
        self.maximumRecursionDepth = maximumRecursionDepth
    }

    /// Every guard off.
    public static let off = LoopGuards()
    /// The embedded engine's guards under `strict`: strings up to 200 bytes, unbounded arrays up to 3
    /// elements, a definition nested in itself at most once.
    public static let embeddedDefault = LoopGuards(maximumStringBytes: 200, maximumUnboundedItems: 3, maximumRecursionDepth: 1)

    /// The guards in force for `enforcement` when a request sets none: the embedded defaults under
    /// `strict`, none under `device` (the on-device decoder has no such limits).
    public static func defaults(for enforcement: GuideEnforcement) -> LoopGuards {
        enforcement == .device ? .off : .embeddedDefault
    }
}

/// A place where a loop guard cut the model's choices: the output reached the guard's limit there, so
/// the grammar removed the choice to go on (a longer string, another element, another level).
public struct GrammarLimitCut: Codable, Hashable, Sendable {
    /// The loop guards.
    public enum Guard: String, Codable, Hashable, Sendable, CaseIterable {
        /// `maximumStringBytes`: the string was closed at the limit.
        case maximumStringBytes
        /// `maximumUnboundedItems`: the array was closed at the limit.
        case maximumUnboundedItems
        /// `maximumRecursionDepth`: a nested level of a recursive definition was not offered.
        case maximumRecursionDepth
    }

    /// The JSON pointer of the value in the response (or in the tool call's arguments).
    public var path: String
    /// The guard that cut.
    public var `guard`: Guard
    /// The guard's limit.
    public var limit: Int
    /// The tool whose call arguments were cut (nil: the structured response).
    public var tool: String?

    /// A cut at `path` by `guard` with `limit`.
    public init(path: String, guard: Guard, limit: Int, tool: String? = nil) {
        self.path = path
        self.guard = `guard`
        self.limit = limit
        self.tool = tool
    }

    /// One line for reports: `/items: maximumUnboundedItems 3 (tool getCityInfo)`.
    public var summary: String {
        "\(path.isEmpty ? "/" : path): \(self.guard.rawValue) \(limit)" + (tool.map { " (tool \($0) arguments)" } ?? "")
    }
}

extension LoopGuards {
    /// `{"maximumStringBytes", "maximumUnboundedItems", "maximumRecursionDepth"}`, null for a guard that is off.
    public var content: GeneratedContent {
        func value(_ limit: Int?) -> GeneratedContent { limit.map { GeneratedContent($0) } ?? .null }
        return GeneratedContent(properties: [
            ("maximumStringBytes", value(maximumStringBytes)),
            ("maximumUnboundedItems", value(maximumUnboundedItems)),
            ("maximumRecursionDepth", value(maximumRecursionDepth)),
        ])
    }
}

extension GrammarLimitCut {
    /// Reads `{"path", "guard", "limit", "tool"?}`; nil when the value does not have that shape.
    public init?(content: GeneratedContent) {
        guard let path = content["path"]?.stringValue, let name = content["guard"]?.stringValue,
              let cut = Guard(rawValue: name), let limit = content["limit"]?.intValue else { return nil }
        self.init(path: path, guard: cut, limit: limit, tool: content["tool"]?.stringValue)
    }
}
