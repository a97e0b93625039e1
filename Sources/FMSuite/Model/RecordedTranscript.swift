import FMCore

/// A `FoundationModels.Transcript` JSON file that a case scores instead of running a session
/// (a suite's `transcripts:`): the session already happened on a device.
public struct RecordedTranscript: Encodable, Sendable {
    /// The engine name recorded for cases scored from transcripts (no model runs).
    public static let engineName = "recorded"

    /// The file, as shown in messages (relative to the current directory when below it).
    public var path: String
    /// Hex SHA-256 of the file's bytes.
    public var sha256: String
    /// The transcript; nil when the file is not valid Foundation Models transcript JSON.
    public var transcript: Transcript?
    /// Why the file cannot be scored (`file:line:col: error: at /pointer: message`); nil when it can.
    public var problem: Diagnostic?

    /// A recorded transcript and its digest; `problem` when it did not load.
    public init(path: String, sha256: String, transcript: Transcript?, problem: Diagnostic? = nil) {
        self.path = path
        self.sha256 = sha256
        self.transcript = transcript
        self.problem = problem
    }

    private enum CodingKeys: String, CodingKey { case path, sha256, problem }

    /// `{"path", "sha256", "problem"?}`: the transcript itself is the file.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(sha256, forKey: .sha256)
        try container.encodeIfPresent(problem?.description, forKey: .problem)
    }

    /// The prompt entries' text, in order.
    var prompts: [String] {
        transcript?.structuredTranscript.prompts ?? []
    }

    /// The last prompt entry: the one the final response answers.
    var lastPrompt: Transcript.Prompt? {
        for entry in (transcript?.entries ?? []).reversed() {
            if case .prompt(let prompt) = entry { return prompt }
        }
        return nil
    }

    /// The names of the tools the transcript's instructions define.
    var toolNames: [String] {
        (transcript?.entries ?? []).flatMap { entry -> [String] in
            if case .instructions(let instructions) = entry { return instructions.toolDefinitions.map(\.name) }
            return []
        }
    }
}

extension ExpandedCase {
    /// The case as its recorded transcript defines it: instructions, prompt (or turns), the last
    /// prompt's response format as the schema and its options as the options.
    func recording(_ recorded: RecordedTranscript) -> ExpandedCase {
        var item = self
        item.recorded = recorded
        item.instructions = recorded.transcript?.structuredTranscript.instructionText
        let prompts = recorded.prompts
        item.prompt = prompts.count == 1 ? prompts[0] : nil
        item.turns = prompts.count > 1 ? prompts : nil
        item.generating = recorded.lastPrompt?.responseFormat?.schema
        if let options = recorded.lastPrompt?.options { item.options = options }
        item.repeatCount = 1
        return item
    }
}
