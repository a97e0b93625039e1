import FMCore

/// What an engine is built from: its name and its options (suite `engine:` mapping, `--engine-option`,
/// and the `--model`/`--cassette` shorthands for the options of those names).
public struct EngineConfiguration: Sendable, Hashable {
    /// The engine name (`--engine` or a suite's `engine:`).
    public var name: String
    /// The engine's options by name, as JSON values; validated against the engine's descriptor.
    public var options: [String: GeneratedContent]

    /// Creates a configuration from a name and options.
    public init(name: String, options: [String: GeneratedContent]) {
        self.name = name
        self.options = options
    }

    /// Creates a configuration with the `model` and `cassette` options set where given.
    public init(name: String, model: String? = nil, cassette: String? = nil) {
        self.init(name: name, options: [:])
        self.model = model
        self.cassette = cassette
    }

    /// The name of the option `--model` sets, on the engines that declare it.
    public static let modelOption = "model"
    /// The name of the option `--cassette` sets, on the engines that declare it.
    public static let cassetteOption = "cassette"
    /// The name of the option `--base-url` sets: the API root of an engine that talks to a server.
    public static let baseURLOption = "baseURL"

    /// The `model` option: a model name or file (embedded engine); nil for the engine's default.
    public var model: String? {
        get { options[Self.modelOption]?.stringValue }
        set { options[Self.modelOption] = newValue.map { GeneratedContent($0) } }
    }

    /// The `cassette` option: the recordings the `replay` engine plays.
    public var cassette: String? {
        get { options[Self.cassetteOption]?.stringValue }
        set { options[Self.cassetteOption] = newValue.map { GeneratedContent($0) } }
    }

    /// The options as one canonical JSON object (keys sorted), for equality, hashing and messages.
    public var canonicalOptions: String {
        "{" + options.keys.sorted().map { "\(GeneratedContent.quoted($0)):\(options[$0]!.jsonString)" }.joined(separator: ",") + "}"
    }

    /// `name` alone, or `name {options}` when it has options.
    public var summary: String { options.isEmpty ? name : "\(name) \(canonicalOptions)" }

    /// Equal when the names and the canonical options are equal.
    public static func == (lhs: EngineConfiguration, rhs: EngineConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.canonicalOptions == rhs.canonicalOptions
    }

    /// Hashes the name and the canonical options.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(canonicalOptions)
    }
}
