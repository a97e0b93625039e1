import FMCore

/// How a session is set up: instructions, tools, options, response schema and Foundation Models limits.
/// Hashable over every field: a field added here enters the identity of repeat reuse (`RepeatReuse`).
public struct SessionConfiguration: Hashable, Sendable {
    /// The default context window, in tokens.
    public static let defaultContextSize = 4096
    /// The context-window tokens fmeval charges for one image: Apple publishes no figure and `fm count-tokens
    /// --image` fails on macOS 27.0.1, so this is an estimate (a 24×24 patch grid), configurable as `imageTokens`.
    public static let defaultImageTokens = 576
    /// The default loop guard: tool calls allowed while answering one prompt.
    public static let defaultMaxToolCalls = 8

    /// The instructions, transcript entry 0 (nil: no instructions entry).
    public var instructions: String?
    /// The tools the model may call, with where their outputs come from.
    public var tools: [SessionTool]
    /// Sampling, temperature, maximumResponseTokens and toolCallingMode.
    public var options: GenerationOptions
    /// The response schema for every prompt (nil: text responses), unless a prompt gives its own.
    public var schema: GenerationSchema?
    /// Enforce the schema with token masks (false: prompt channel only).
    public var constrained: Bool
    /// Show the schema in the prompt.
    public var includeSchemaInPrompt: Bool
    /// The context window in tokens; a request whose prompt does not fit throws `contextSizeExceeded`.
    public var contextSize: Int
    /// The most tool calls while answering one prompt; one more ends the attempt with `toolCallLimitExceeded`.
    public var maxToolCalls: Int
    /// The folder relative tool fixture files and commands are resolved against.
    public var baseDirectory: String?
    /// The environment, secrets and output limit of command tools.
    public var commands = CommandPolicy()
    /// Which guides the grammar channel enforces (nil: `strict`).
    public var guideEnforcement: GuideEnforcement?
    /// The grammar's loop guards (nil: the profile's defaults).
    public var loopGuards: LoopGuards?
    /// The context-window tokens each image in the transcript takes (its label's text is not what it costs).
    public var imageTokens = SessionConfiguration.defaultImageTokens

    /// Creates a configuration with the Foundation Models defaults.
    public init(instructions: String? = nil, tools: [SessionTool] = [], options: GenerationOptions = GenerationOptions(),
                schema: GenerationSchema? = nil, constrained: Bool = true, includeSchemaInPrompt: Bool = true,
                contextSize: Int = SessionConfiguration.defaultContextSize,
                maxToolCalls: Int = SessionConfiguration.defaultMaxToolCalls, baseDirectory: String? = nil) {
        self.instructions = instructions
        self.tools = tools
        self.options = options
        self.schema = schema
        self.constrained = constrained
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.contextSize = contextSize
        self.maxToolCalls = maxToolCalls
        self.baseDirectory = baseDirectory
    }
}

/// What one `respond` produced, and what it cost.
public struct SessionResponse: Sendable {
    /// The response text (for a structure, its JSON text).
    public var text: String
    /// The structured response, when a schema was requested.
    public var content: GeneratedContent?
    /// The tool calls made while answering, in order.
    public var toolCalls: [ToolCall]
    /// Counters for this prompt.
    public var stats: TurnStats
}

/// Counters for one prompt's answer; kept up to date while answering, so they survive an error.
public struct TurnStats: Sendable, Hashable {
    /// Tokens over every engine call.
    public var usage = Usage()
    /// Engine calls made (one per model turn of the tool loop).
    public var engineCalls = 0
    /// Requests the engine itself retried after passing faults, over those calls.
    public var engineRetries = 0
    /// Tool calls run.
    public var toolCalls = 0
    /// Milliseconds spent running them (their outputs computed or their commands run).
    public var toolMs = 0.0
    /// Streaming snapshots (text deltas and partial structures); engine calls that only call tools add none.
    public var snapshotCount = 0
    /// Milliseconds from the request until the first snapshot, when there was one.
    public var timeToFirstSnapshotMs: Double?
    /// Whether `maximumResponseTokens` cut the response.
    public var truncated = false
    /// The raw text of the last model response, kept when it could not be parsed (for the report).
    public var lastResponseText: String?
    /// Where the grammar's loop guards cut the model's choices, over every engine call.
    public var grammarLimits: [GrammarLimitCut] = []
    /// Prefill and decode time over the engine calls that reported it (nil: none did).
    public var timings: EngineTimings?

    /// Empty counters.
    public init() {}

    /// Adds `other`'s counters into these (for totals over several prompts).
    public mutating func accumulate(_ other: TurnStats, offsetMs: Double) {
        usage += other.usage
        engineCalls += other.engineCalls
        engineRetries += other.engineRetries
        toolCalls += other.toolCalls
        toolMs += other.toolMs
        snapshotCount += other.snapshotCount
        if timeToFirstSnapshotMs == nil, let first = other.timeToFirstSnapshotMs { timeToFirstSnapshotMs = offsetMs + first }
        truncated = truncated || other.truncated
        lastResponseText = other.lastResponseText ?? lastResponseText
        grammarLimits += other.grammarLimits
        timings = EngineTimings.sum(timings, other.timings)
    }
}

/// A session-level failure that is not a model error: the tool loop guard or a broken toolCallingMode
/// contract (a failing tool is a `ToolCallError`).
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model kept calling tools past `maxToolCalls` while answering one prompt (`underRequiredMode`:
    /// `toolCallingMode` was `required`, which forces a call on every turn, so the device would loop).
    case toolCallLimitExceeded(limit: Int, lastTool: String, underRequiredMode: Bool = false)
    /// The engine called a tool under `disallowed`, or answered without one under `required`.
    case toolCallingModeViolation(String)

    /// The stable name of the case.
    public var caseName: String {
        switch self {
        case .toolCallLimitExceeded: return "toolCallLimitExceeded"
        case .toolCallingModeViolation: return "toolCallingModeViolation"
        }
    }

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .toolCallLimitExceeded(let limit, let tool, true):
            return "toolCallingMode required forces a tool call on every model turn, so the model can never answer: "
                + "the loop guard stopped it after maxToolCalls (\(limit)) calls for one prompt (last: \(tool)). "
                + "On the device this session would have looped without end. To test which tools the model calls, keep "
                + "required and make this loop the expected end: set maxToolCalls to the calls to check and expect "
                + "`error: toolCallLimitExceeded` beside `toolCalls` (docs/suite-format.md, \"The required-mode loop\"); "
                + "a case where the model must answer after calling tools needs toolCallingMode allowed"
        case .toolCallLimitExceeded(let limit, let tool, false):
            return "the model called tools more than maxToolCalls (\(limit)) times for one prompt (last: \(tool)); "
                + "the loop was stopped. Raise maxToolCalls if the trajectory is legitimate"
        case .toolCallingModeViolation(let message): return message
        }
    }
}

extension SessionError: ClassifiedError {
    /// The loop guard and a broken toolCallingMode are the model's behaviour.
    public var failureClass: FailureClass { .modelBehavior }

    /// `SessionError`.
    public var domain: String { "SessionError" }

    /// The description.
    public var failureMessage: String { description }
}
