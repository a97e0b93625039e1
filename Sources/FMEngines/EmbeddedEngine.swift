import FMCore
import FMEmbedded
import FMGrammar
import Foundation

/// The in-process GGUF llama engine (`--engine embedded`): ChatML prompts from the transcript,
/// structured output and tool calls under grammar-constrained decoding (the grammar channel) and/or
/// the schema shown in the prompt (the prompt channel), streaming text and partial structures, and
/// real token counts with the reused prompt prefix reported as cached input.
public final class EmbeddedEngine: LanguageModelEngine, Sendable {
    /// `embedded`, the model file's name, and (for the default model) its SHA-256.
    public let identity: EngineIdentity
    /// Guided generation, tool calling and streaming; no image input (SmolLM2 reads text only).
    public let capabilities = EngineCapabilities(guidedGeneration: true, toolCalling: true, streaming: true, imageInput: false)
    /// The generator (model, KV cache of the previous request, prefix cache of earlier prompts).
    public let generator: Generator
    /// The model's tokenizer.
    public let tokenizer: Tokenizer
    /// The model's chat template.
    public let template: ChatTemplate
    /// The vocabulary as grammars see it (stop ids end generation, control ids are never allowed).
    public let vocabulary: TokenVocabulary
    private let grammars = GrammarCache()

    /// Loads the model at `path` (nil: the default model, fetched on first use), keeping up to
    /// `prefixCacheBytes` of earlier prompts' keys and values.
    public convenience init(modelPath: String?, prefixCacheBytes: Int = PrefixCache.defaultBudgetBytes,
                            progress: (String) -> Void = { _ in }) throws {
        let url = try modelPath.map { URL(fileURLWithPath: $0) } ?? ModelStore.defaultModelURL(progress: progress)
        let file = try GGUFFile(path: url.path)
        // The default model was verified on download; another file is hashed so drift reports can tell
        // two models of one name apart (a re-quantised or edited GGUF).
        let hash = modelPath == nil ? ModelSpec.smolLM2.sha256 : SHA256.hexOfFile(atPath: url.path)
        try self.init(file: file, modelName: FilePaths.stem(of: url.path), modelHash: hash,
                      prefixCacheBytes: prefixCacheBytes)
    }

    /// An engine over an opened GGUF file, keeping up to `prefixCacheBytes` of earlier prompts' keys and values.
    public init(file: GGUFFile, modelName: String, modelHash: String?, prefixCacheBytes: Int = PrefixCache.defaultBudgetBytes) throws {
        let model = try LlamaModel(file: file)
        generator = Generator(model: model, prefixCacheBytes: prefixCacheBytes)
        tokenizer = try Tokenizer(file: file)
        template = try ChatTemplate(file: file)
        vocabulary = TokenVocabulary(tokens: tokenizer.allTokenBytes, endTokenIDs: tokenizer.stopIDs.sorted(),
                                     specialTokenIDs: tokenizer.specialTokenIDs)
        identity = EngineIdentity(name: "embedded", model: modelName, modelHash: modelHash)
    }

    /// The C kernels' level the model computes at (`kernelLevel`), recorded in the results fingerprint so
    /// that runs differing only in level show it (every level gives the same bits; speed differs).
    public var runDetails: [String: String] { ["kernelLevel": generator.model.kernelLevel.name] }

    /// The prompt's token ids for `request`.
    public func promptTokens(for request: EngineRequest) throws -> [Int32] {
        let messages = try EmbeddedPromptFormat.messages(for: request, defaultSystemPrompt: template.defaultSystemPrompt)
        do {
            return try template.promptTokens(messages, tokenizer: tokenizer).map(Int32.init)
        } catch let error as ChatTemplateError {
            throw LanguageModelError.unsupportedCapability(.init(debugDescription: error.message))
        }
    }

    /// The real prompt length in tokens (the session's context check uses it).
    public func promptTokenCount(for request: EngineRequest) throws -> Int? {
        try promptTokens(for: request).count
    }

    /// The tokens `text` takes in SmolLM2's tokenizer (no special tokens parsed).
    public func tokenCount(for text: String) throws -> Int? {
        tokenizer.tokenize(text).count
    }

    /// Generates the response: constrained per `constrained`/`toolCallingMode`, streamed through `onEvent`.
    /// It generates at most `responseTokenLimit` tokens and never past the KV cache; a response stopped by
    /// the cache before the request's own limit ran off the model's window and throws `contextSizeExceeded`.
    public func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse {
        try checkCapabilities(for: request)
        let prompt = try promptTokens(for: request)
        let tools = EmbeddedPromptFormat.offeredTools(request)
        let grammarStarted = DispatchTime.now().uptimeNanoseconds
        let constraint = try makeConstraint(for: request, tools: tools)
        let grammarMs = Double(DispatchTime.now().uptimeNanoseconds - grammarStarted) / 1e6
        let capacity = generator.model.cache.capacity
        let requested = request.responseTokenLimit ?? capacity
        let limit = max(0, min(requested, capacity - prompt.count))
        let generation = GenerationRequest(prompt: prompt, maxTokens: limit, stopTokens: Set(tokenizer.stopIDs.map(Int32.init)),
                                           sampling: Self.sampling(request.options), constraint: constraint)
        return try withoutActuallyEscaping(onEvent) { onEvent in
            var stream = EmbeddedOutputStream(tokenizer: tokenizer, mayCallTools: !tools.isEmpty,
                                              structured: request.schema != nil, onEvent: onEvent)
            let result: GenerationResult
            do {
                result = try generator.generate(generation) { token in
                    stream.append(Int(token))
                    return true
                }
            } catch let error as LlamaRunError where error.isContextOverflow {
                throw LanguageModelError.contextSizeExceeded(.init(debugDescription: error.message))
            }
            if limit < requested && (result.finishReason == .length || result.finishReason == .contextFull) {
                throw LanguageModelError.contextSizeExceeded(.init(debugDescription:
                    "the prompt takes \(prompt.count) of the model's \(capacity)-token cache and the response ran past the "
                    + "\(limit) left; shorten the prompt or turns, or ask for a shorter answer"))
            }
            let timings = EngineTimings(prefillTokens: result.promptTokens - result.reusedPromptTokens,
                                        prefillMs: result.prefillSeconds * 1000, decodeTokens: result.tokens.count,
                                        decodeMs: result.decodeSeconds * 1000,
                                        maskMs: constraint == nil ? nil : result.maskSeconds * 1000,
                                        grammarMs: constraint == nil ? nil : grammarMs,
                                        forcedTokens: constraint == nil ? nil : result.forcedTokens,
                                        draftTokens: result.draftTokens,
                                        acceptedDraftTokens: result.acceptedDraftTokens)
            return finish(result, timings: timings, stream: &stream, request: request, tools: tools,
                          constraint: constraint, onEvent: onEvent)
        }
    }

    /// The response for a finished generation: tool calls, or text and (when asked) the structure.
    private func finish(_ result: GenerationResult, timings: EngineTimings, stream: inout EmbeddedOutputStream,
                        request: EngineRequest, tools: [ToolDefinition], constraint: EmbeddedConstraint?,
                        onEvent: (EngineEvent) -> Void) -> EngineResponse {
        let usage = Usage(inputTokens: result.promptTokens, cachedInputTokens: result.reusedPromptTokens,
                          outputTokens: result.tokens.count)
        let finish: FinishReason = result.finishReason == .length || result.finishReason == .contextFull ? .length : .stop
        let text = stream.text
        if !tools.isEmpty, let calls = EmbeddedOutputParser.toolCalls(in: text, lenient: request.schema == nil,
                                                                         dropsRepeats: constraint?.enforced == true,
                                                                         transcript: request.transcript) {
            for call in calls { onEvent(.toolCall(call)) }
            var response = EngineResponse(text: "", toolCalls: calls, finishReason: .toolCalls, usage: usage)
            response.timings = timings
            if constraint?.enforced == true && request.constrained {
                let options = Self.grammarOptions(for: request)
                response.grammarLimits = calls.flatMap { call in
                    tools.first { $0.name == call.name }.map {
                        GrammarLimitCuts.find(in: call.arguments, schema: $0.parameters, options: options, tool: call.name)
                    } ?? []
                }.nonEmpty
            }
            return response
        }
        stream.flush()
        var content: GeneratedContent?
        if let schema = request.schema {
            content = EmbeddedOutputParser.structure(in: text, exact: constraint?.enforced ?? false, schema: schema)
        }
        var response = EngineResponse(text: text, content: content, finishReason: finish, usage: usage)
        response.timings = timings
        if let content, let schema = request.schema, constraint?.enforced == true {
            response.grammarLimits = GrammarLimitCuts.find(in: content, schema: schema, options: Self.grammarOptions(for: request)).nonEmpty
        }
        return response
    }

    /// The grammar channel's options for `request`: compact JSON with one optional space after
    /// separators, the request's guide-enforcement profile, and its loop guards (by default, under
    /// `strict`, `LoopGuards.embeddedDefault`: strings up to 200 bytes, unbounded arrays up to 3
    /// elements, a definition nested in itself at most once; none under `device`).
    public static func grammarOptions(for request: EngineRequest) -> GrammarOptions {
        GrammarOptions(enforcement: request.enforcement, loopGuards: request.effectiveLoopGuards)
    }

    /// The most tool calls the grammar lets the model make in one turn (parallel calls, separated by a
    /// line feed): enough for "the weather in Vienna, Berlin and Paris", and the same bound as for an
    /// unbounded array, so a greedy model that repeats its call stops after three; the repeats are
    /// left out of the turn's calls (`EmbeddedOutputParser.toolCalls`, `dropsRepeats`).
    public static let maximumParallelToolCalls = 3

    /// The grammar constraint for `request`, or nil for free generation. With `constrained: false` only
    /// `toolCallingMode: required` is still enforced: a call of a defined tool, arguments any JSON object
    /// (the mode is session semantics; the argument schema is a guide the prompt channel only shows).
    private func makeConstraint(for request: EngineRequest, tools: [ToolDefinition]) throws -> EmbeddedConstraint? {
        let prefix = EmbeddedPromptFormat.toolCallPrefix
        let options = Self.grammarOptions(for: request)
        guard request.constrained else {
            guard !tools.isEmpty && request.toolCallingMode == .required else { return nil }
            let table = try grammars.table(schema: nil, tools: tools, prefix: prefix, enforcesArguments: false, options: options, vocabulary: vocabulary)
            return EmbeddedConstraint(table: table, activation: .always)
        }
        if !tools.isEmpty && request.toolCallingMode == .required {
            let table = try grammars.table(schema: nil, tools: tools, prefix: prefix, enforcesArguments: true, options: options, vocabulary: vocabulary)
            return EmbeddedConstraint(table: table, activation: .always)
        }
        if let schema = request.schema {
            let table = try grammars.table(schema: schema, tools: tools, prefix: prefix, enforcesArguments: true, options: options, vocabulary: vocabulary)
            return EmbeddedConstraint(table: table, activation: .always)
        }
        guard !tools.isEmpty else { return nil }
        let table = try grammars.table(schema: nil, tools: tools, prefix: prefix, enforcesArguments: true, options: options, vocabulary: vocabulary)
        return EmbeddedConstraint(table: table, activation: .afterPrefix(Array(prefix.utf8)))
    }

    /// The generator's sampling for Foundation Models options (greedy unless asked otherwise).
    static func sampling(_ options: GenerationOptions) -> SamplingParameters {
        let temperature = options.temperature ?? 1
        switch options.sampling ?? .greedy {
        case .greedy: return .greedy
        case .topK(let k, let seed): return SamplingParameters(mode: .topK(k), temperature: temperature, seed: seed)
        case .nucleus(let p, let seed): return SamplingParameters(mode: .topP(p), temperature: temperature, seed: seed)
        }
    }

    /// The registry entry: options `model` and `prefixCacheMB`; one shared engine (one model in memory).
    static let descriptor = EngineDescriptor(
        name: "embedded", summary: "SmolLM2-135M-Instruct in-process, greedy and grammar-constrained (default)",
        options: [EngineOptionSpec("model", .string, "a GGUF model file (--model FILE); default: SmolLM2-135M-Instruct, fetched on first use"),
                  prefixCacheOption],
        check: { options in
            if case .failure(let error) = prefixCacheBytes(options: options, environment: ProcessInfo.processInfo.environment) { return [error.problem] }
            return []
        },
        build: { try provider($0) })

    /// A provider sharing one engine (one model in memory) across attempts.
    public static func provider(_ configuration: EngineConfiguration) throws -> EngineProvider {
        let budget: Int
        switch prefixCacheBytes(options: configuration.options, environment: ProcessInfo.processInfo.environment) {
        case .success(let bytes): budget = bytes
        case .failure(let error): throw Fault.invalidInput(error.problem.message)
        }
        do {
            return SharedEngineProvider(engine: try EmbeddedEngine(modelPath: configuration.model, prefixCacheBytes: budget) { message in
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }, deterministic: true)
        } catch let error as ModelStoreError {
            throw Fault.infrastructure(error.description)
        } catch let error as GGUFError {
            let model = configuration.model ?? "the default model"
            throw Fault(configuration.model != nil ? .invalidInput : .infrastructure, "\(model): \(error.description)")
        }
    }
}

/// Compiled grammars and their token tables, kept for the engine's lifetime so that repeats and
/// cases sharing a schema or tool set reuse the per-state tables.
// @unchecked Sendable: `tables`, the only mutable state, is read and written only under `lock`.
final class GrammarCache: @unchecked Sendable {
    private struct Key: Hashable {
        var schema: GenerationSchema?
        var tools: [ToolDefinition]
        var prefix: String
        var enforcesArguments: Bool
        var options: GrammarOptions
    }

    private var tables: [Key: TokenTable] = [:]
    private let lock = NSLock()

    /// The table for a response grammar, compiling it on first use.
    func table(schema: GenerationSchema?, tools: [ToolDefinition], prefix: String, enforcesArguments: Bool,
               options: GrammarOptions, vocabulary: TokenVocabulary) throws -> TokenTable {
        let key = Key(schema: schema, tools: tools, prefix: prefix, enforcesArguments: enforcesArguments, options: options)
        lock.lock()
        defer { lock.unlock() }
        if let table = tables[key] { return table }
        let grammar = try Grammar.response(schema: schema, tools: tools, toolCallPrefix: prefix,
                                           enforcesArguments: enforcesArguments,
                                           maximumToolCalls: EmbeddedEngine.maximumParallelToolCalls, options: options)
        let table = TokenTable(grammar: grammar, vocabulary: vocabulary)
        tables[key] = table
        return table
    }
}

private extension Array {
    /// The array, or nil when it is empty (optional response fields are left out when empty).
    var nonEmpty: [Element]? { isEmpty ? nil : self }
}
