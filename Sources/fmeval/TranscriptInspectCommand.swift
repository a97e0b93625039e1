import FMCore

/// `fmeval transcript inspect FILE.json`: the StructuredTranscript of an Apple transcript file, as JSON.
struct TranscriptInspectCommand: Command {
    static let path = ["transcript", "inspect"]
    static let summary = "Print the StructuredTranscript of a FoundationModels.Transcript JSON file"
    static let help = """
    USAGE: fmeval transcript inspect FILE.json

    Reads FILE.json, a transcript as Apple's FoundationModels framework encodes it
    ({"version": 1, "type": "FoundationModels.Transcript", "transcript": {"entries": [...]}}), and prints
    the StructuredTranscript evaluators read:

      {"instructionText", "prompts", "responses",
       "toolCalls": [{"id", "name", "arguments"}], "toolOutputs": [{"toolName", "toolCallID", "text"}]}

    Tool-call arguments are printed as JSON objects. Use - to read standard input.

    EXIT CODES: 0 printed · 2 unreadable file, malformed JSON, or an entry Apple's format does not allow
    (an unknown role or segment type, a missing field).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        var parser = Arguments(arguments, command: "transcript inspect")
        let files = try parser.finish()
        guard files.count == 1 else {
            throw CLIError.invalidInput("transcript inspect: expected one FILE.json, got \(files.count) arguments; see 'fmeval help transcript inspect'")
        }
        let transcript = try loadDocument(files[0]).decodeForCommand { try Transcript(content: $0) }
        print(transcript.structuredTranscript.content.jsonString(indent: 2))
        return ExitCode.ok
    }
}
