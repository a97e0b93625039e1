import FMCore
import FMEmbedded

/// `fmeval tokenize [--json] [--special] [--model FILE] TEXT`: the token ids of a text.
struct TokenizeCommand: Command {
    static let path = ["tokenize"]
    static let summary = "Print the token ids of a text (the model's tokenizer, as llama.cpp tokenizes it)"
    static let help = """
    USAGE: fmeval tokenize [--json] [--special] [--pieces] [--model FILE] TEXT

    Tokenizes TEXT with the default model's tokenizer (or FILE's) without BOS and prints the ids
    separated by spaces. --json prints {"tokens": [ids]}. --special also recognises control tokens
    written in the text (e.g. <|im_start|>); without it they are tokenized as plain characters.
    --pieces prints one line per token: the id and its bytes (as a JSON string).

    EXIT CODES: 0 ok · 2 missing TEXT, bad flag or unreadable FILE · 3 the default model could not be fetched.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        var parser = Arguments(arguments, command: "tokenize")
        let json = parser.flag("--json")
        let special = parser.flag("--special")
        let pieces = parser.flag("--pieces")
        let modelPath = try parser.option("--model")
        let texts = try parser.finish()
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
