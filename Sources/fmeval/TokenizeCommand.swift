import FMCore
import FMEmbedded

/// `fmeval tokenize [--json] [--special] [--model FILE] TEXT`: the token ids of a text.
struct TokenizeCommand: Command {
    static let path = ["tokenize"]
    static let summary = "Print the token ids of a text (the model's tokenizer, as llama.cpp tokenizes it)"
    static let json = Flag("--json", help: "print {\"tokens\": [ids]}")
    static let special = Flag("--special", help: "recognise control tokens written in the text")
    static let pieces = Flag("--pieces", help: "print one line per token: the id and its bytes")
    static let model = Flag("--model", .value("FILE"),
                            help: "the GGUF whose tokenizer to use (default: the default model)")
    static let usage = CommandUsage("tokenize", flags: FlagTable(json, special, pieces, model), after: "TEXT")
    static let help = """
    \(usage.line)

    Tokenizes TEXT with the default model's tokenizer (or FILE's) without BOS and prints the ids
    separated by spaces. --json prints {"tokens": [ids]}. --special also recognises control tokens
    written in the text (e.g. <|im_start|>); without it they are tokenized as plain characters.
    --pieces prints one line per token: the id and its bytes (as a JSON string).

    OPTIONS:
    \(usage.flags.list(column: 17))

    EXIT CODES: 0 ok · 2 missing TEXT, bad flag or unreadable FILE · 3 the default model could not be fetched.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "tokenize", flags: usage.flags)
        let json = parser.flag(Self.json)
        let special = parser.flag(Self.special)
        let pieces = parser.flag(Self.pieces)
        let modelPath = parser.value(model)
        let texts = parser.positionals
        guard texts.count == 1 else {
            throw Fault.invalidInput("tokenize: expected one TEXT argument (quote it), got \(texts.count); see 'fmeval help tokenize'")
        }
        let tokenizer = try openTokenizer(try openModel(modelPath), userSupplied: modelPath != nil)
        let ids = tokenizer.tokenize(texts[0], parseSpecial: special)
        if json {
            printJSON(GeneratedContent(properties: [("tokens", GeneratedContent(ids.map { GeneratedContent($0) }))]).jsonString)
        } else if pieces {
            for id in ids {
                let text = String(decoding: tokenizer.tokenBytes(id), as: UTF8.self)
                printJSON("\(id)\t\(GeneratedContent(text).jsonString)")
            }
        } else {
            print(ids.map(String.init).joined(separator: " "))
        }
        return ExitStatus.ok
    }
}
