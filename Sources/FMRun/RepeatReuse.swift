import FMCore
import FMEngines
import FMResults
import FMSession

/// Everything that decides a greedy attempt's answer on a deterministic engine: the session plan
/// (instructions, tools and their outputs, options, schema, prompt channels, limits, turns, edits,
/// attachments) and what the engine says besides the request (the scripted engine: the attempt's script).
/// Two attempts whose requests are equal get byte-identical engine requests on every turn.
struct AttemptRequest: Hashable {
    var instructions: String?
    var tools: [SessionTool]
    var options: GenerationOptions
    var schema: GenerationSchema?
    var constrained: Bool
    var includeSchemaInPrompt: Bool
    var contextSize: Int
    var imageTokens: Int
    var maxToolCalls: Int
    var baseDirectory: String?
    var commands: CommandPolicy
    var guideEnforcement: GuideEnforcement?
    var loopGuards: LoopGuards?
    var turns: [String]
    var attachments: [Transcript.AttachmentSegment]
    var edits: [Int: TranscriptEdit]
    var engineKey: String

    /// The request of `plan` on an engine whose reuse key is `engineKey`, or nil when it may not be
    /// answered from an earlier attempt: sampling is not greedy, or a tool's output comes from a command.
    init?(_ plan: SessionPlan, engineKey: String) {
        let configuration = plan.configuration
        guard configuration.options.sampling == nil || configuration.options.sampling == .greedy,
              !configuration.tools.contains(where: { $0.output.runsCommand }) else { return nil }
        instructions = configuration.instructions
        tools = configuration.tools
        options = configuration.options
        schema = configuration.schema
        constrained = configuration.constrained
        includeSchemaInPrompt = configuration.includeSchemaInPrompt
        contextSize = configuration.contextSize
        imageTokens = configuration.imageTokens
        maxToolCalls = configuration.maxToolCalls
        baseDirectory = configuration.baseDirectory
        commands = configuration.commands
        guideEnforcement = configuration.guideEnforcement
        loopGuards = configuration.loopGuards
        turns = plan.turns
        attachments = plan.attachments
        edits = plan.edits
        self.engineKey = engineKey
    }
}

/// The attempts of one case that may answer later identical ones (`--no-reuse-repeats` turns it off).
struct RepeatReuse {
    private var answered: [AttemptRequest: (index: Int, outcome: AttemptExecutor.Outcome)] = [:]

    /// The earlier attempt that answered `request`, if any.
    func earlier(for request: AttemptRequest) -> (index: Int, outcome: AttemptExecutor.Outcome)? {
        answered[request]
    }

    /// Keeps `outcome` of attempt `index` to answer later attempts with the same request, unless it ended
    /// in an infrastructure error (only the model's own outcomes are deterministic).
    mutating func keep(_ outcome: AttemptExecutor.Outcome, index: Int, for request: AttemptRequest) {
        guard answered[request] == nil else { return }
        if let error = outcome.error, error.failureClass != .modelBehavior { return }
        answered[request] = (index, outcome)
    }
}
