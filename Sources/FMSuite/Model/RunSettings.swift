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
    /// The device profile the case runs as (`device:` or `--device`); nil when none is named.
    public var device: String?
    /// How many earlier cases a reused session answers before the case's contamination run (nil: none).
    public var contamination: Int?

    /// Creates settings; the defaults are fmeval's.
    public init(contextSize: Int = 4096, constrained: Bool = true, includeSchemaInPrompt: Bool = true,
                stream: Bool = false, maxToolCalls: Int = 8) {
        self.contextSize = contextSize
        self.constrained = constrained
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.stream = stream
        self.maxToolCalls = maxToolCalls
    }

    /// The most earlier cases `contamination` may name.
    public static let maximumContamination = 16

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
    /// The device profile named at this level (`device:`), whose settings the patch already holds.
    public var device: String?
    /// `contamination`, if given.
    public var contamination: Int?

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
        merged.device = override.device ?? device
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
        settings.device = device
        return settings
    }
}


/// One run setting of `options:`, declared once: its key, default and documentation, its part of the
/// suite JSON Schema, how the reader reads it, and its fields in `OptionsPatch` and `RunSettings`. The
/// reader, the layering of patches, the resolved settings, `fmeval schema suite` and the table in
/// docs/suite-format.md (a test compares them) all come from `RunSettingTable.all`. A setting is part of
/// the answer's identity through the session plan, which is Hashable over every field.
struct RunSetting {
    /// The key in `options:`.
    let name: String
    /// The default as the docs table writes it.
    let defaultText: String
    /// What the setting does, for the docs table and the schema's description (Markdown).
    let doc: String
    /// The JSON Schema members of its value, before the description (`"type": "integer", "minimum": 1`).
    let schema: String
    /// Reads the value at `node` (nil: absent) into a patch, reporting problems under `what`.
    let read: (SuiteReader, YAMLNode?, String, inout OptionsPatch) -> Void
    /// Takes the value from the later patch when it sets one.
    let merge: (inout OptionsPatch, OptionsPatch) -> Void
    /// Writes the patch's value, or the default, into the settings.
    let resolve: (OptionsPatch, inout RunSettings) -> Void

    /// A setting with a default: absent from every patch, `settings` keeps the value `RunSettings()` has
    /// (which the docs table shows).
    static func valued<Value>(_ name: String, _ doc: String, schema: String,
                              patch: WritableKeyPath<OptionsPatch, Value?>,
                              settings: WritableKeyPath<RunSettings, Value>,
                              read: @escaping (SuiteReader, YAMLNode?, String) -> Value?) -> RunSetting {
        RunSetting(name, defaultText: "\(RunSettings()[keyPath: settings])", doc, schema: schema, patch: patch,
                   read: read) { source, target in
            if let value = source[keyPath: patch] { target[keyPath: settings] = value }
        }
    }

    /// A setting whose absence is nil in `RunSettings` (the consumer's own default applies).
    static func optional<Value>(_ name: String, default defaultText: String, _ doc: String, schema: String,
                                patch: WritableKeyPath<OptionsPatch, Value?>,
                                settings: WritableKeyPath<RunSettings, Value?>,
                                read: @escaping (SuiteReader, YAMLNode?, String) -> Value?) -> RunSetting {
        RunSetting(name, defaultText: defaultText, doc, schema: schema, patch: patch, read: read) { source, target in
            target[keyPath: settings] = source[keyPath: patch]
        }
    }


    /// The docs table's row.
    var docsRow: String { "| `\(name)` | \(defaultText) | \(doc) |" }

    /// Its member of `$defs/options/properties` (one line unless `schema` spans several).
    var schemaMember: String {
        let description = GeneratedContent(doc.replacingOccurrences(of: "`", with: "")).jsonString
        return "\"\(name)\": { \(schema), \"description\": \(description) }"
    }
}

extension RunSetting {
    /// A setting read into, and layered through, the patch's field at `patch`; `resolve` fills the settings.
    fileprivate init<Value>(_ name: String, defaultText: String, _ doc: String, schema: String,
                            patch: WritableKeyPath<OptionsPatch, Value?>,
                            read: @escaping (SuiteReader, YAMLNode?, String) -> Value?,
                            resolve: @escaping (OptionsPatch, inout RunSettings) -> Void) {
        self.init(name: name, defaultText: defaultText, doc: doc, schema: schema,
                  read: { reader, node, what, target in target[keyPath: patch] = read(reader, node, what) },
                  merge: { target, later in if let value = later[keyPath: patch] { target[keyPath: patch] = value } },
                  resolve: resolve)
    }
}

/// Every run setting, in the order of the docs table and the schema.
enum RunSettingTable {
    /// The settings, built once: every case's options are layered through them. The entries hold key paths
    /// and closures, which are not `Sendable`, but the table is never changed after it is built.
    nonisolated(unsafe) static let all: [RunSetting] = {
        [
            .valued("contextSize", """
                Context window in tokens, shared by prompt and response: a prompt that does not fit is \
                `contextSizeExceeded` before generating, and so is a response that runs past the tokens the prompt \
                leaves.
                """, schema: #""type": "integer", "minimum": 1"#, patch: \.contextSize, settings: \.contextSize) {
                    $0.int($1, $2, minimum: 1)
                },
            .optional("imageTokens", default: "576", """
                Context-window tokens each image in the transcript takes (its label is not what it costs). Apple \
                publishes no figure and `fm count-tokens --image` fails on macOS 27.0.1, so 576 (a 24×24 patch grid) \
                is an estimate: set the figure you measure from `response.usage` on your device. Images that do not \
                fit are `contextSizeExceeded`, with the images' share in the message.
                """, schema: #""type": "integer", "minimum": 0"#, patch: \.imageTokens, settings: \.imageTokens) {
                    $0.int($1, $2, minimum: 0)
                },
            .valued("constrained",
                    "Enforce structured output with the grammar (false: the schema is only in the prompt).",
                    schema: #""type": "boolean""#, patch: \.constrained, settings: \.constrained) { $0.bool($1, $2) },
            .valued("includeSchemaInPrompt", "Show the schema to the model in the prompt.",
                    schema: #""type": "boolean""#, patch: \.includeSchemaInPrompt, settings: \.includeSchemaInPrompt) {
                        $0.bool($1, $2)
                    },
            .valued("stream", "Stream the response and count snapshots.",
                    schema: #""type": "boolean""#, patch: \.stream, settings: \.stream) { $0.bool($1, $2) },
            .valued("maxToolCalls", "Loop guard: more tool calls end the attempt with an error.",
                    schema: #""type": "integer", "minimum": 0"#, patch: \.maxToolCalls, settings: \.maxToolCalls) {
                        $0.int($1, $2, minimum: 0)
                    },
            .optional("guideEnforcement", default: "`strict`", """
                `strict` (every guide) or `device` (what the on-device decoder enforces: no `.anyOf` in tool \
                arguments, simple patterns only, no loop guards); see docs/device-differences.md. \
                `fmeval run --guide-enforcement` overrides it.
                """, schema: #""enum": ["device", "strict"]"#,
                patch: \.guideEnforcement, settings: \.guideEnforcement) {
                    $0.guideEnforcement($1, $2)
                },
            .optional("loopGuards", default: "200 / 3 / 1 (`strict`), off (`device`)", """
                The grammar's loop guards: `off`, or a mapping of the guards to keep, `{maximumStringBytes: N, \
                maximumUnboundedItems: N, maximumRecursionDepth: N}` (a guard left out is off).
                """, schema: loopGuardsSchema, patch: \.loopGuards, settings: \.loopGuards) {
                    $0.loopGuards($1, $2)
                },
            .optional("contamination", default: "0 (off)", """
                Also run the case in one session reused after the N cases before it in its suite and variant \
                (their first prompts, under this case's instructions, tools and schema; counting on from the \
                suite's end for the first cases), and score only its own turns: a verdict that differs from the \
                fresh session's is flagged history-dependent and fails the run (docs/suite-format.md, "Session \
                contamination").
                """, schema: #""type": "integer", "minimum": 0, "maximum": \#(RunSettings.maximumContamination)"#,
                patch: \.contamination, settings: \.contamination) {
                    $0.int($1, $2, minimum: 0, maximum: RunSettings.maximumContamination)
                },
        ]
    }()

    /// Every key, in order.
    static let keys: [String] = all.map(\.name)

    /// The value of `loopGuards`: `off` or the guards to keep.
    private static let loopGuardsSchema = #"""
        "anyOf": [
          { "const": "off" },
          {
            "type": "object", "additionalProperties": false,
            "properties": {
              "maximumStringBytes": { "type": "integer", "minimum": 1,
                "description": "A free string ends after this many bytes." },
              "maximumUnboundedItems": { "type": "integer", "minimum": 1,
                "description": "An array without maxItems ends after this many elements." },
              "maximumRecursionDepth": { "type": "integer", "minimum": 0,
                "description": "How many times a definition may contain itself." }
            }
          }
        ]
        """#
}
