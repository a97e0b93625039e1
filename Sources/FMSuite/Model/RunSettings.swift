import FMCore

/// fmeval's per-run knobs, written in the `options:` block beside the GenerationOptions keys.
public struct RunSettings: Codable, Hashable, Sendable {
    /// The context window in tokens; a longer prompt fails with `contextSizeExceeded` before generating.
    public var contextSize: Int
    /// Whether structured output is enforced by the grammar channel (false: prompt only).
    public var constrained: Bool
    /// Whether the schema is shown in the prompt (the prompt channel).
    public var includeSchemaInPrompt: Bool
    /// Whether the response is streamed (snapshots counted).
    public var stream: Bool
    /// The most tool calls in one attempt before it ends with a loop-guard error.
    public var maxToolCalls: Int
    /// Which guides the grammar channel enforces (nil: `strict`; left out of the case definition when nil).
    public var guideEnforcement: GuideEnforcement?
    /// The grammar's loop guards (nil: the profile's defaults).
    public var loopGuards: LoopGuards?
    /// The context-window tokens one image takes (nil: `SessionConfiguration.defaultImageTokens`, an estimate).
    public var imageTokens: Int?

    /// Creates settings; the defaults are fmeval's.
    public init(contextSize: Int = 4096, constrained: Bool = true, includeSchemaInPrompt: Bool = true,
                stream: Bool = false, maxToolCalls: Int = 8) {
        self.contextSize = contextSize
        self.constrained = constrained
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.stream = stream
        self.maxToolCalls = maxToolCalls
    }

    /// The `options:` keys that are run settings rather than GenerationOptions (`RunSettingTable`).
    public static var keys: [String] { RunSettingTable.keys }
}

/// An `options:` block as written (suite, variant or case level): every field optional, layered later.
public struct OptionsPatch: Hashable, Sendable {
    /// The GenerationOptions fields given here.
    public var generation = GenerationOptions()
    /// `contextSize`, if given.
    public var contextSize: Int?
    /// `constrained`, if given.
    public var constrained: Bool?
    /// `includeSchemaInPrompt`, if given.
    public var includeSchemaInPrompt: Bool?
    /// `stream`, if given.
    public var stream: Bool?
    /// `maxToolCalls`, if given.
    public var maxToolCalls: Int?
    /// `guideEnforcement`, if given.
    public var guideEnforcement: GuideEnforcement?
    /// `loopGuards`, if given.
    public var loopGuards: LoopGuards?
    /// `imageTokens`, if given.
    public var imageTokens: Int?

    /// Creates an empty patch.
    public init() {}

    /// This patch with every field that `override` sets replaced by its value.
    public func overridden(by override: OptionsPatch) -> OptionsPatch {
        var merged = self
        merged.generation.sampling = override.generation.sampling ?? generation.sampling
        merged.generation.temperature = override.generation.temperature ?? generation.temperature
        merged.generation.maximumResponseTokens = override.generation.maximumResponseTokens ?? generation.maximumResponseTokens
        merged.generation.toolCallingMode = override.generation.toolCallingMode ?? generation.toolCallingMode
        for setting in RunSettingTable.all { setting.merge(&merged, override) }
        return merged
    }

    /// GenerationOptions with the harness default of greedy sampling when none is given.
    public var resolvedOptions: GenerationOptions {
        var options = generation
        if options.sampling == nil { options.sampling = .greedy }
        return options
    }

    /// The run settings with fmeval's defaults for anything not given.
    public var resolvedSettings: RunSettings {
        var settings = RunSettings()
        for setting in RunSettingTable.all { setting.resolve(self, &settings) }
        return settings
    }
}
