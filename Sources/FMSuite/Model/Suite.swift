import FMCore
import FMEvaluate

/// A suite as loaded and validated from one file: shared settings, tools, variants and cases.
public struct Suite: Sendable {
    /// The suite's name (`suite:`).
    public var name: String
    /// What the suite checks.
    public var description: String?
    /// The file it came from (as given to the loader).
    public var file: String
    /// The engine cases run on unless a variant says otherwise (default `embedded`).
    public var engine: EngineSpec
    /// The model (a file path or name) for the engine; nil for the engine's default.
    public var model: String?
    /// Suite-level options.
    public var options: OptionsPatch
    /// Suite-level instructions.
    public var instructions: String?
    /// The suite-level output schema, if any.
    public var generating: GenerationSchema?
    /// Tools available to every case.
    public var tools: [SuiteTool]
    /// Named alternatives; empty means one implicit run with no variant.
    public var variants: [Variant]
    /// Applied to every case.
    public var defaults: CaseDefaults
    /// The cases: inline ones, then dataset lines, in order.
    public var cases: [SuiteCase]
    /// A known issue every case of the suite expects, unless its variant or the case declares its own.
    public var knownIssue: KnownIssue?
    /// The environment, secrets and tool output limit of the suite's command tools and evaluators.
    public var commands = CommandPolicy()
    /// The bug report the suite reproduces (`source:`, `reproducedWith:`, `summary:`); nil when none is given.
    public var origin: SuiteOrigin? = nil
    /// Settings the command line lays over every case (`--device`, `--guide-enforcement`), after the case's own.
    public var overrides = OptionsPatch()
}

/// An `engine:` as written: a name and its options (`engine: NAME` or `engine: {name: NAME, KEY: value}`),
/// with where each was written. The engine registry (FMEngines) checks them when a run or `fmeval validate`
/// resolves the engines.
public struct EngineSpec: Sendable {
    /// The engine's name.
    public var name: String
    /// The options given, as JSON values.
    public var options: [String: GeneratedContent]
    /// Where `engine:`'s value was written; nil for the default engine.
    public var location: SourceLocation?
    /// Where each option's key was written.
    public var optionLocations: [String: SourceLocation]

    /// A spec with a name and options.
    public init(name: String, options: [String: GeneratedContent] = [:], location: SourceLocation? = nil, optionLocations: [String: SourceLocation] = [:]) {
        self.name = name
        self.options = options
        self.location = location
        self.optionLocations = optionLocations
    }

    /// `other` laid over this spec: its options over these when both name the same engine, else `other`.
    public func overridden(by other: EngineSpec?) -> EngineSpec {
        guard let other else { return self }
        guard other.name == name else { return other }
        var merged = self
        merged.location = other.location ?? location
        for (key, value) in other.options {
            merged.options[key] = value
            merged.optionLocations[key] = other.optionLocations[key]
        }
        return merged
    }
}

/// Expectations and settings applied to every case of a suite (`defaults:`).
public struct CaseDefaults: Sendable {
    /// Expectations added before each case's own.
    public var expect: [Expectation] = []
    /// Attempts per case unless the case says otherwise.
    public var repeatCount: Int?
    /// Varied attempts per case (`reproduce:`) unless the case gives its own `reproduce` or `repeat`.
    public var reproduce: Reproduce?
    /// The gate unless the case gives one.
    public var gate: CaseGate?
    /// Tags added to every case.
    public var tags: [String] = []

    /// Empty defaults.
    public init() {}
}

/// A named alternative run of every case: instructions, a prompt template, options, engine or model.
public struct Variant: Sendable {
    /// The variant's name (`--variant NAME`).
    public var name: String
    /// Replaces the instructions.
    public var instructions: String?
    /// A template for the prompt: `{{prompt}}`, `{{id}}` and case `vars` are substituted.
    public var promptTemplate: String?
    /// Options layered over the suite's.
    public var options: OptionsPatch
    /// Replaces the engine (its options layered over the suite's when it names the same engine).
    public var engine: EngineSpec?
    /// Replaces the model.
    public var model: String?
    /// A known issue every case run under this variant expects, unless the case declares its own.
    public var knownIssue: KnownIssue?
    /// Where it was defined.
    public var location: SourceLocation
}

/// One case as written (inline or a dataset line).
public struct SuiteCase: Sendable {
    /// Unique within the suite.
    public var id: String
    /// A single-turn prompt.
    public var prompt: String?
    /// Prompts of a multi-turn conversation, in order.
    public var turns: [String]?
    /// Edits of the transcript's history made before a turn, keyed by 0-based turn index.
    public var transcriptEdits: [Int: TranscriptEdit] = [:]
    /// Replaces the instructions.
    public var instructions: String?
    /// Replaces the output schema.
    public var generating: GenerationSchema?
    /// Options layered over suite and variant.
    public var options: OptionsPatch
    /// Labels for filtering and reports.
    public var tags: [String]
    /// Attempts to run.
    public var repeatCount: Int?
    /// Varied attempts (`reproduce:`): seeds and paraphrases; replaces `repeat`.
    public var reproduce: Reproduce? = nil
    /// The pass rule over attempts.
    public var gate: CaseGate?
    /// Checks on each attempt.
    public var expect: [Expectation]
    /// Values for `{{name}}` in prompt templates.
    public var vars: [String: String]
    /// Limits the case to these variants (nil: all).
    public var variants: [String]?
    /// The data the case carries for engines that declare it (the scripted engine's `script:`), by key.
    public var engineData = EngineCaseData()
    /// Where each engine-data key's value is written, for problems found after reading.
    var engineDataNodes: [String: YAMLNode] = [:]
    /// A known issue this case expects (overrides the variant's and the suite's where it applies).
    public var knownIssue: KnownIssue?
    /// The variants the case's known issue is limited to; nil: every variant.
    public var knownIssueVariants: [String]?
    /// The `knownIssue:` node, for locating problems found after reading.
    var knownIssueNode: YAMLNode?
    /// Images attached to the (first) prompt, read from `images:`.
    public var images: [Transcript.AttachmentSegment] = []
    /// Where the case starts (file line:column; a dataset line for JSONL cases).
    public var location: SourceLocation
    /// The recorded transcript the case scores (a suite's `transcripts:`); nil for live cases.
    public var recorded: RecordedTranscript? = nil
    /// The `generating:` node, for checks that need to know whether it could be read.
    var generatingNode: YAMLNode? = nil
    /// Where the case's own `options.temperature` is written, for the warning when it has no effect.
    var temperatureLocation: SourceLocation? = nil
}
