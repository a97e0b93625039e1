import FMCore
import FMEngines

/// `--engine NAME`, the repeatable `--engine-option KEY=VALUE` and `--base-url URL` of `run` and `respond`.
struct EngineFlags {
    /// `--engine`, if given.
    var name: String?
    /// The `--engine-option`s by key (a later one for the same key wins).
    var options: [String: GeneratedContent] = [:]

    /// `--engine NAME`; its help names the command's default.
    static let engine = Flag("--engine", .value("NAME"), help: "the engine")
    /// `--engine-option KEY=VALUE`, repeatable.
    static let engineOption = Flag("--engine-option", .repeatable("KEY=VALUE"), help: """
        an option of the engine (repeatable), over any `engine:` options of the suite; VALUE
        is read as JSON when it parses (8, true, "text", [1], {"a": 1}), else as text
        """)
    /// `--base-url URL`.
    static let baseURL = Flag("--base-url", .value("URL"), help: """
        the server of an engine with a `baseURL` option (openai), e.g. http://127.0.0.1:8080/v1;
        the same as --engine-option baseURL=URL
        """)

    /// The three flags, `--engine`'s help naming `fallback` as the default and listing the registry's engines.
    static func table(default fallback: String) -> FlagTable {
        let list = EngineRegistry.helpText(indent: 0)
        let engine = engine.described("the engine (default: \(fallback)); one of:\n" + list)
        return FlagTable(engine, engineOption, baseURL)
    }

    /// Reads the flags from `args`; a malformed `--engine-option` is an error naming the flag.
    /// `--base-url URL` sets the `baseURL` option unless an `--engine-option baseURL=…` does.
    static func parse(_ args: Arguments) throws -> EngineFlags {
        var flags = EngineFlags(name: args.value(engine))
        if let url = args.value(baseURL) { flags.options[EngineConfiguration.baseURLOption] = GeneratedContent(url) }
        for text in args.values(engineOption) {
            let (key, value) = try option(text)
            flags.options[key] = value
        }
        return flags
    }

    /// `KEY=VALUE` split at the first '=', the value parsed as JSON when it parses, else kept as text.
    static func option(_ text: String) throws -> (String, GeneratedContent) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw Fault.invalidInput("--engine-option \(text): expected KEY=VALUE (e.g. --engine-option model=m.gguf)")
        }
        let key = String(text[..<equals]), raw = String(text[text.index(after: equals)...])
        return (key, (try? GeneratedContent(json: raw)) ?? GeneratedContent(raw))
    }
}
