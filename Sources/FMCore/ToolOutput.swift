/// What the harness answers when the model calls a tool: the one tool-output type, from the suite that
/// declares it to the session that appends it to the transcript.
public indirect enum ToolOutput: Encodable, Hashable, Sendable {
    /// Fixed text (a text segment).
    case text(String)
    /// Structured content (a structure segment).
    case structure(GeneratedContent)
    /// A fixture file's text, read when the suite loads (`path` as resolved against the suite file).
    case file(path: String, text: String)
    /// A program run per call: the arguments as JSON on stdin, the output is its stdout (a text segment).
    case command(ToolCommand)
    /// Per-argument rules: the first rule whose `when` values all equal the call's arguments answers.
    case byArguments([ToolOutputRule])

    /// The concrete output for a call with `arguments`, following rules (never `.byArguments`); nil when no
    /// rule matches.
    public func resolve(arguments: GeneratedContent) -> ToolOutput? {
        guard case .byArguments(let rules) = self else { return self }
        for rule in rules where rule.matches(arguments) { return rule.output.resolve(arguments: arguments) }
        return nil
    }

    /// Whether any output of this one comes from running a command (which may answer differently per call).
    public var runsCommand: Bool {
        switch self {
        case .text, .structure, .file: return false
        case .command: return true
        case .byArguments(let rules): return rules.contains { $0.output.runsCommand }
        }
    }

    private enum CodingKeys: String, CodingKey { case text, structure, file, command, timeoutSeconds, outputs }

    /// Encodes `{text}`, `{structure}`, `{file, text}`, `{command, timeoutSeconds}` or `{outputs: [rule]}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .text)
        case .structure(let content): try container.encode(content, forKey: .structure)
        case .file(let path, let text):
            try container.encode(path, forKey: .file)
            try container.encode(text, forKey: .text)
        case .command(let command):
            try container.encode(command.argv, forKey: .command)
            try container.encode(command.timeoutSeconds, forKey: .timeoutSeconds)
        case .byArguments(let rules): try container.encode(rules, forKey: .outputs)
        }
    }
}

/// One per-argument rule of a tool's `outputs:` list.
public struct ToolOutputRule: Encodable, Hashable, Sendable {
    /// Argument values that must all be equal for the rule to apply (an object); nil applies always.
    public var when: GeneratedContent?
    /// The answer when the rule applies.
    public var output: ToolOutput

    /// Creates a rule.
    public init(when: GeneratedContent?, output: ToolOutput) {
        self.when = when
        self.output = output
    }

    /// Whether every `when` member equals the same-named argument (a `when` that is not an object must
    /// equal the arguments themselves).
    public func matches(_ arguments: GeneratedContent) -> Bool {
        guard let when else { return true }
        guard let members = when.orderedProperties else { return when == arguments }
        return members.allSatisfy { arguments[$0.key] == $0.value }
    }
}

/// A command-backed tool output: the program and its arguments, and how long it may run.
public struct ToolCommand: Hashable, Sendable {
    /// The time limit when the suite gives none, in seconds.
    public static let defaultTimeout = 30.0

    /// The program and its arguments (a relative program path is resolved against the suite's folder).
    public var argv: [String]
    /// Seconds before the command is killed and the call fails.
    public var timeoutSeconds: Double

    /// The line appended to a tool output cut at the limit: what the model and the results see.
    public static func truncationNote(kept: Int, of total: Int) -> String {
        "[fmeval: tool output truncated: \(kept) of \(total) bytes kept; "
            + "raise toolOutputLimit in the suite to keep more]"
    }

    /// Creates a command output.
    public init(argv: [String], timeoutSeconds: Double = ToolCommand.defaultTimeout) {
        self.argv = argv
        self.timeoutSeconds = timeoutSeconds
    }
}
