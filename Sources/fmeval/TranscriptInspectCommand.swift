import FMCore

/// `fmeval transcript inspect FILE.json`: a readable view of an Apple transcript file, or its StructuredTranscript as JSON.
struct TranscriptInspectCommand: Command {
    static let path = ["transcript", "inspect"]
    static let summary = "Show a FoundationModels.Transcript JSON file (entries, tools, options, calls; --json)"
    static let json = Flag("--json", help: "print the StructuredTranscript evaluators read")
    static let usage = CommandUsage("transcript inspect", flags: FlagTable(json), after: "FILE.json")
    static let help = """
    \(usage.line)

    Reads FILE.json, a transcript as Apple's FoundationModels framework encodes it
    ({"version": 1 or "1.1", "type": "FoundationModels.Transcript", "transcript": {"entries": [...]}}, or
    the session file of Apple's fm tool, {"modelName", "transcript": {...}}), and prints
    each entry in order, numbered: instructions with their tool definitions (one line per parameter: type,
    guides, optional), prompts with their options and response format, tool calls with their arguments,
    tool outputs, responses with their structured content.

    --json prints instead the StructuredTranscript evaluators read:

      {"instructionText", "prompts", "responses",
       "toolCalls": [{"id", "name", "arguments"}], "toolOutputs": [{"toolName", "toolCallID", "text"}]}

    Tool-call arguments are printed as JSON objects. Use - to read standard input.

    OPTIONS:
    \(usage.flags.list(column: 12))

    EXIT CODES: 0 printed · 2 unreadable file, malformed JSON, or an entry Apple's format does not allow
    (an unknown role or segment type, a missing field).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "transcript inspect", flags: usage.flags)
        let json = parser.flag(Self.json)
        let files = parser.positionals
        guard files.count == 1 else {
            throw Fault.invalidInput("transcript inspect: expected one FILE.json, got \(files.count) arguments; see 'fmeval help transcript inspect'")
        }
        let transcript = try loadDocument(files[0]).decodeForCommand { try Transcript(content: $0) }
        if json { printJSON(transcript.structuredTranscript.content.jsonString(indent: 2)) } else { print(TranscriptView(transcript: transcript).text) }
        return ExitStatus.ok
    }
}
