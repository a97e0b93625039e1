import FMCore

/// `fmeval transcript convert [--dialect 26|27] FILE.json`: a transcript file rewritten in one dialect.
struct TranscriptConvertCommand: Command {
    static let path = ["transcript", "convert"]
    static let summary = "Rewrite a transcript file in the Foundation Models 27 (default) or 26 dialect"
    static let dialect = Flag("--dialect", .value("26|27"), help: "the dialect to write (default: 27)")
    static let usage = CommandUsage("transcript convert", flags: FlagTable(dialect), after: "FILE.json")
    static let help = """
    \(usage.line)

    Reads FILE.json (any transcript shape fmeval reads: Foundation Models 26 or 27 Codable JSON, or a
    session file of Apple's fm tool) and prints it, indented, in the chosen dialect:

      27 (default)  "version": "1.1", flat options (topK, randomSeed, ...), images as data: URIs
                    ({"type": "image"} or a labelled {"type": "attachment", "attachment": {...}}),
                    contextOptions on every prompt, assets on every response
      26            "version": 1, options nested under "sampling", fmeval's earlier attachment shape

    Members fmeval does not model are kept; an fm session file keeps its wrapper (modelName). Converting
    a file to its own dialect prints the same JSON value. Use - to read standard input.

    OPTIONS:
    \(usage.flags.list(column: 20))

    EXIT CODES: 0 printed · 2 unreadable file, malformed JSON, a shape or version fmeval does not read,
    or an unknown --dialect.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "transcript convert", flags: usage.flags)
        let name = parser.value(Self.dialect) ?? Transcript.Dialect.fm27.rawValue
        let files = parser.positionals
        guard let dialect = Transcript.Dialect(rawValue: name) else {
            throw Fault.invalidInput("transcript convert: --dialect \(name) is not a dialect; use 26 or 27")
        }
        guard files.count == 1 else {
            throw Fault.invalidInput("transcript convert: expected one FILE.json, got \(files.count) arguments; "
                + "see 'fmeval help transcript convert'")
        }
        let transcript = try loadDocument(files[0]).decodeForCommand { try Transcript(content: $0) }
        let converted = transcript.dialect == dialect ? transcript : transcript.converted(to: dialect)
        print(converted.content.jsonString(indent: 2))
        return ExitStatus.ok
    }
}
