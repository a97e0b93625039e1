import FMCore
import FMEmbedded
import FMEngines
import Foundation

/// `fmeval respond [--schema FILE] … PROMPT`: one greedy reply.
struct RespondCommand: Command {
    static let path = ["respond"]
    static let summary = "Generate one greedy response to a prompt, with the embedded model by default (like Apple's `fm respond`)"
    static let schema = Flag("--schema", .value("FILE"), help: "generate a structured response: FILE is a GenerationSchema")
    static let instructions = Flag("--instructions", .value("TEXT"), help: "the system message")
    static let maxTokens = Flag("--max-tokens", .value("N"), help: "stop after N generated tokens")
    static let json = Flag("--json", help: "print the reply, its tokens, finish reason and usage as JSON")
    static let model = Flag("--model", .value("FILE"), help:
                            "the engine's `model` option (embedded: a GGUF file; openai: the server's model name)")
    static let usage = CommandUsage("respond", flags: FlagTable(schema, instructions, maxTokens, json, model)
                                 + EngineFlags.table(default: EngineRegistry.defaultEngine), after: "PROMPT")
    static let help = """
    \(usage.line)

    Renders PROMPT (and TEXT as the system message; without it, the model's default system prompt)
    with the model's ChatML template, then generates greedily until <|im_end|>/EOS, N tokens, or the end
    of the context window (like Foundation Models, there is no cap by default other than the context:
    finishReason contextFull). The reply streams to standard output as it is generated.
    --json prints instead {"text", "tokens" (the generated ids), "finishReason" (stop | length |
    contextFull), "usage" {inputTokens, cachedInputTokens, outputTokens, reasoningTokens}}.
    The default model is fetched on first use (progress on standard error); --model uses another
    llama-family GGUF with a GPT-2 BPE tokenizer and a ChatML template.

    --schema FILE generates a structured response instead: FILE is a GenerationSchema (the Foundation
    Models JSON-Schema dialect, as `fmeval schema check` reads it). The schema is shown in the prompt
    and enforced by grammar-constrained decoding (the embedded engine's grammar channel), and only
    the generated JSON document is printed; with --json it is the "content" field of
    {"text", "content", "finishReason", "usage"}. A structure cut by --max-tokens is reported on
    standard error (exit 1).

    --engine NAME answers through another engine instead (one session request, greedy): the reply is
    printed once it is complete, with --json as {"text", "content", "finishReason", "usage"}.

    OPTIONS:
    \(usage.flags.list())

    EXIT CODES: 0 ok · 1 the structure was cut by --max-tokens or the context window · 2 missing PROMPT, bad flag,
    unreadable FILE, invalid schema, a generation guide the grammar cannot enforce
    (unsupportedGenerationGuide) or prompt longer than the context, an unknown engine or engine option
    · 3 the default model could not be fetched or loaded, the engine failed or is not in this build.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "respond", flags: usage.flags)
        let json = parser.flag(Self.json)
        let instructions = parser.value(Self.instructions)
        let maxTokens = try parser.int(Self.maxTokens, minimum: 1)
        let modelFlag = parser.value(Self.model)
        let schemaPath = parser.value(Self.schema)
        let engineFlags = try EngineFlags.parse(parser)
        let prompts = parser.positionals
        guard prompts.count == 1 else {
            throw Fault.invalidInput("respond: expected one PROMPT argument (quote it), got \(prompts.count); see 'fmeval help respond'")
        }
        let configuration = try engineConfiguration(engineFlags, modelPath: modelFlag)
        let schema = try schemaPath.map { try loadDocument($0).decodeForCommand { try GenerationSchema(content: $0) } }
        if configuration.name != EngineRegistry.defaultEngine {
            return try respondThroughEngine(prompts[0], configuration: configuration, schema: schema,
                                            instructions: instructions, maxTokens: maxTokens, json: json)
        }
        let modelPath = configuration.model
        if let schema {
            return try respondStructured(prompts[0], schema: schema, instructions: instructions, maxTokens: maxTokens,
                                         modelPath: modelPath, json: json)
        }
        let file = try openModel(modelPath)
        let userSupplied = modelPath != nil
        let tokenizer = try openTokenizer(file, userSupplied: userSupplied)
        let template: ChatTemplate
        let generator: Generator
        do {
            template = try ChatTemplate(file: file)
            generator = Generator(model: try LlamaModel(file: file))
        } catch let error as GGUFError {
            let message = (userSupplied ? "--model: " : "") + error.description
            throw userSupplied ? Fault.invalidInput(message) : Fault.infrastructure(message)
        }
        var messages: [ChatMessage] = instructions.map { [.system($0)] } ?? []
        messages.append(.user(prompts[0]))
        let promptIDs: [Int32]
        do {
            promptIDs = try template.promptTokens(messages, tokenizer: tokenizer).map { Int32($0) }
        } catch let error as ChatTemplateError {
            throw userSupplied ? Fault.invalidInput("--model: \(error.message)") : Fault.infrastructure(error.message)
        }
        let request = GenerationRequest(prompt: promptIDs, maxTokens: maxTokens ?? max(0, generator.model.cache.capacity - promptIDs.count),
                                        stopTokens: Set(tokenizer.stopIDs.map { Int32($0) }))
        var stream = UTF8Stream()
        let result: GenerationResult
        do {
            result = try generator.generate(request) { token in
                if !json { stream.write(tokenizer.detokenize([Int(token)])) }
                return true
            }
        } catch let error as LlamaRunError {
            throw error.isContextOverflow ? Fault.invalidInput("respond: \(error.message)")
                                          : Fault.infrastructure("respond: \(error.message)")
        }
        let ids = result.tokens.map { Int($0) }
        if json {
            printJSON(report(text: tokenizer.text(ids), ids: ids, result: result).jsonString)
        } else {
            stream.finish()
        }
        return ExitStatus.ok
    }

    /// `--schema`: one constrained structured response through the embedded engine's grammar channel.
    static func respondStructured(_ prompt: String, schema: GenerationSchema, instructions: String?, maxTokens: Int?,
                                  modelPath: String?, json: Bool) throws -> Int32 {
        let file = try openModel(modelPath)
        let engine: EmbeddedEngine
        do {
            let name = FilePaths.stem(of: modelPath ?? ModelSpec.smolLM2.fileName)
            engine = try EmbeddedEngine(file: file, modelName: name, modelHash: modelPath == nil ? ModelSpec.smolLM2.sha256 : nil)
        } catch let error as GGUFError {
            throw modelPath != nil ? Fault.invalidInput("--model: \(error.description)") : Fault.infrastructure(error.description)
        }
        let request = engineRequest(prompt, schema: schema, instructions: instructions, maxTokens: maxTokens)
        let response: EngineResponse
        do {
            response = try engine.respond(to: request) { _ in }
        } catch let error as LanguageModelError {
            switch error {
            case .unsupportedGenerationGuide, .contextSizeExceeded: throw Fault.invalidInput("respond: \(error.description)")
            default: throw Fault.infrastructure("respond: \(error.description)")
            }
        }
        let content = response.finishReason == .stop ? response.content : nil
        if json {
            printJSON(structuredReport(response, content: content).jsonString)
        } else if let content {
            printJSON(content.jsonString)
        }
        guard content != nil else {
            let limit = maxTokens.map { "--max-tokens \($0)); raise --max-tokens" } ?? "the end of the context window); shorten the prompt"
            printError("respond: the structure was cut after \(response.usage.outputTokens) tokens (\(limit). "
                       + "Generated so far: \(response.text)")
            return ExitStatus.failed
        }
        return ExitStatus.ok
    }

    /// The `--json` object for `--schema`: the raw text, the parsed document (null when cut), finish reason and usage.
    static func structuredReport(_ response: EngineResponse, content: GeneratedContent?) -> GeneratedContent {
        GeneratedContent(properties: [
            ("text", GeneratedContent(response.text)),
            ("content", content ?? GeneratedContent.null),
            ("finishReason", GeneratedContent(response.finishReason.rawValue)),
            ("usage", usageContent(response.usage)),
        ])
    }

    /// The `usage` object of the `--json` reports.
    static func usageContent(_ usage: Usage) -> GeneratedContent {
        GeneratedContent(properties: [
            ("inputTokens", GeneratedContent(usage.inputTokens)),
            ("cachedInputTokens", GeneratedContent(usage.cachedInputTokens)),
            ("outputTokens", GeneratedContent(usage.outputTokens)),
            ("reasoningTokens", GeneratedContent(usage.reasoningTokens)),
        ])
    }

    /// The `--json` object.
    static func report(text: String, ids: [Int], result: GenerationResult) -> GeneratedContent {
        let usage = Usage(inputTokens: result.promptTokens, cachedInputTokens: result.reusedPromptTokens,
                          outputTokens: ids.count, reasoningTokens: 0)
        let finish: String
        switch result.finishReason {
        case .stop: finish = "stop"
        case .length: finish = "length"
        case .contextFull: finish = "contextFull"
        case .constraintExhausted: finish = "constraintExhausted"
        case .cancelled: finish = "cancelled"
        }
        return GeneratedContent(properties: [
            ("text", GeneratedContent(text)),
            ("tokens", GeneratedContent(ids.map { GeneratedContent($0) })),
            ("finishReason", GeneratedContent(finish)),
            ("usage", usageContent(usage)),
        ])
    }
}

/// Writes generated bytes to standard output as soon as they form whole UTF-8 characters
/// (a token may end in the middle of a multi-byte character).
struct UTF8Stream {
    private var pending: [UInt8] = []

    /// Appends `bytes` and writes every complete character so far.
    mutating func write(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        let complete = completePrefixLength(pending)
        guard complete > 0 else { return }
        FileHandle.standardOutput.write(Data(TerminalSafe.text(String(decoding: pending[0 ..< complete], as: UTF8.self)).utf8))
        pending.removeFirst(complete)
    }

    /// Writes whatever is left (an incomplete character becomes U+FFFD) and a final newline.
    mutating func finish() {
        let rest = String(decoding: pending, as: UTF8.self)
        FileHandle.standardOutput.write(Data((TerminalSafe.text(rest) + "\n").utf8))
        pending.removeAll()
    }

    /// The length of the longest prefix that does not end inside a multi-byte character.
    private func completePrefixLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var back = 0
        while index > 0 && back < 4 {
            let byte = bytes[index - 1]
            if byte & 0xC0 != 0x80 {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return back + 1 >= length ? bytes.count : index - 1
            }
            index -= 1
            back += 1
        }
        return bytes.count
    }
}
