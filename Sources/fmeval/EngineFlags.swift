import FMCore
import FMEngines

/// `--engine NAME`, the repeatable `--engine-option KEY=VALUE` and `--base-url URL` of `run` and `respond`.
struct EngineFlags {
    /// `--engine`, if given.
    var name: String?
    /// The `--engine-option`s by key (a later one for the same key wins).
    var options: [String: GeneratedContent] = [:]

    /// The help lines of both flags and the engine list, from the registry; `fallback` says what
    /// `--engine` defaults to.
    static func help(default fallback: String) -> String {
        """
      --engine NAME          the engine (default: \(fallback)); one of:
    \(EngineRegistry.helpText(indent: 25))
      --engine-option KEY=VALUE
                             an option of the engine (repeatable), over any `engine:` options of the suite; VALUE
                             is read as JSON when it parses (8, true, "text", [1], {"a": 1}), else as text
      --base-url URL         the server of an engine with a `baseURL` option (openai), e.g. http://127.0.0.1:8080/v1;
                             the same as --engine-option baseURL=URL
    """
    }

    /// Takes the flags out of `args`; a malformed `--engine-option` is an error naming the flag.
    /// `--base-url URL` sets the `baseURL` option unless an `--engine-option baseURL=…` does.
    static func parse(_ args: inout Arguments) throws -> EngineFlags {
        var flags = EngineFlags(name: try args.option("--engine"))
        if let url = try args.option("--base-url") { flags.options["baseURL"] = GeneratedContent(url) }
        for text in try args.options("--engine-option") {
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
