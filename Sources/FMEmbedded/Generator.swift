#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A per-step restriction on the next token (FMGrammar's matcher, joined by the engine adapter).
public protocol TokenConstraint: AnyObject {
    /// Sets the bit of every token allowed next: bit `id % 32` of word `id / 32`. The mask arrives zeroed.
    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>)
    /// Told the token that was chosen (stop tokens included) before generation continues.
    func accept(_ token: Int32)
}

/// What to generate: prompt token ids, a limit, stop ids, sampling, and an optional constraint.
public struct GenerationRequest {
    /// The full prompt (chat-templated), as token ids.
    public var prompt: [Int32]
    /// Most tokens to generate (stop tokens not counted).
    public var maxTokens: Int
    /// Tokens that end generation (not included in the output), e.g. `<|im_end|>`.
    public var stopTokens: Set<Int32>
    /// How tokens are chosen; greedy by default.
    public var sampling: SamplingParameters
    /// Restricts each step's choice; nil for free generation.
    public var constraint: TokenConstraint?

    /// A request with every field given.
    public init(prompt: [Int32], maxTokens: Int, stopTokens: Set<Int32> = [], sampling: SamplingParameters = .greedy,
                constraint: TokenConstraint? = nil) {
        self.prompt = prompt
        self.maxTokens = maxTokens
        self.stopTokens = stopTokens
        self.sampling = sampling
        self.constraint = constraint
    }
}

/// Why generation ended.
public enum GenerationFinishReason: Sendable, Equatable {
    /// A stop token was chosen (it is not part of the output).
    case stop(Int32)
    /// `maxTokens` were generated.
    case length
    /// The context window filled up.
    case contextFull
    /// The constraint allowed no token.
    case constraintExhausted
    /// The streaming callback asked to stop.
    case cancelled
}

/// The generated tokens with accounting for Usage and timing.
public struct GenerationResult: Sendable, Equatable {
    /// Generated token ids, stop token excluded.
    public var tokens: [Int32]
    /// Why generation ended.
    public var finishReason: GenerationFinishReason
    /// Tokens in the prompt.
    public var promptTokens: Int
    /// Prompt tokens whose keys and values were reused, from a slot's KV cache or the prefix cache (cached input).
    public var reusedPromptTokens: Int
    /// Seconds spent processing the prompt (restoring the reused part, computing the rest).
    public var prefillSeconds: Double
    /// Seconds spent generating after the prompt.
    public var decodeSeconds: Double
    /// Of `prefillSeconds` and `decodeSeconds`, the seconds the constraint took to give the allowed tokens
    /// (0 without a constraint).
    public var maskSeconds: Double = 0
}

/// Runs requests against a model, reusing the keys and values of earlier prompts — each sequence slot's
/// own KV cache and every prompt kept in `prefixCache` — so a request sharing a prefix (instructions,
/// tools) with an earlier one does not recompute it. Concurrent requests decode together: each gets its
/// own slot, and their next tokens go through the weights in one pass (`DecodeScheduler`); with
/// `maxSequences` 1 they run one at a time.
// @unchecked Sendable: the model runs only under the scheduler, which hands each slot to one request.
public final class Generator: @unchecked Sendable {
    /// The model generating.
    public let model: LlamaModel
    private let scheduler: DecodeScheduler

    /// Most sequences decoding together when none is asked for: `FMEVAL_SEQUENCES` when set (1 runs
    /// requests one at a time, as before batching), else 8.
    public static var defaultMaxSequences: Int {
        if let text = getenv("FMEVAL_SEQUENCES"), let value = Int(String(cString: text)), value > 0 { return value }
        return 8
    }

    /// A generator over `model` (which it then owns the cache of), decoding up to `maxSequences`
    /// concurrent requests together (at most the model's `maxBatch`) and keeping up to
    /// `prefixCacheBytes` of earlier prompts' keys and values (0: only what the slots hold).
    public init(model: LlamaModel, maxSequences: Int = Generator.defaultMaxSequences,
                prefixCacheBytes: Int = PrefixCache.defaultBudgetBytes) {
        self.model = model
        prefixCache = PrefixCache(model: model, budgetBytes: prefixCacheBytes)
        scheduler = DecodeScheduler(model: model, maxSequences: maxSequences, prefixCache: prefixCache)
    }

    /// Earlier prompts' keys and values (a radix tree under a memory budget; budget 0: none kept).
    public let prefixCache: PrefixCache

    /// What the prefix cache has done so far (lookups, tokens reused and restored, bytes, evictions).
    public var prefixCacheStats: PrefixCacheStats { prefixCache.stats }

    /// Most sequences this generator decodes together.
    public var maxSequences: Int { scheduler.maxSequences }

    /// Decode steps run so far and the sequences they fed.
    public var decodeStats: DecodeStats { scheduler.stats }

    /// Forgets every cached prefix, in the slots and stored (the next request recomputes its whole prompt).
    public func resetCache() {
        scheduler.forgetCachedTokens()
        prefixCache.removeAll()
    }

    /// Generates for `request`, calling `onToken` with each token as it is chosen (return false to stop).
    /// Concurrent calls decode together; `onToken` and the constraint run on the calling thread.
    public func generate(_ request: GenerationRequest, onToken: (Int32) -> Bool = { _ in true }) throws -> GenerationResult {
        let prompt = request.prompt, capacity = model.cache.capacity
        try check(prompt)
        let (slot, reuse) = scheduler.acquire(prompt: prompt)
        defer { scheduler.release(slot) }

        var sampler = Sampler(request.sampling)
        var result = GenerationResult(tokens: [], finishReason: .length, promptTokens: prompt.count,
                                      reusedPromptTokens: reuse, prefillSeconds: 0, decodeSeconds: 0)
        result.tokens.reserveCapacity(max(0, request.maxTokens))
        let started = Self.now()
        guard request.maxTokens > 0 else {
            try scheduler.prefill(slot, prompt: prompt, reuse: reuse, logits: false, mask: nil)
            result.prefillSeconds = Self.now() - started
            return result
        }
        let firstMask = fillMask(slot, request.constraint, timing: &result.maskSeconds)
        try scheduler.prefill(slot, prompt: prompt, reuse: reuse, logits: true, mask: firstMask)
        let decodeStarted = Self.now()
        result.prefillSeconds = decodeStarted - started

        scheduler.join()
        defer { scheduler.leave() }
        let logits = slot.logits(count: model.config.vocabSize)
        var position = prompt.count
        let profile = model.decodeProfile
        var clock = PhaseClock(profile)
        while true {
            let sampled = sampler.sample(logits)
            clock.lap(.sampling)
            guard let token = sampled else {
                result.finishReason = .constraintExhausted
                break
            }
            request.constraint?.accept(token)
            if request.stopTokens.contains(token) {
                result.finishReason = .stop(token)
                break
            }
            result.tokens.append(token)
            if !onToken(token) {
                result.finishReason = .cancelled
                break
            }
            if result.tokens.count >= request.maxTokens {
                result.finishReason = .length
                break
            }
            if position >= capacity {
                result.finishReason = .contextFull
                break
            }
            clock = PhaseClock(profile)
            let mask = fillMask(slot, request.constraint, timing: &result.maskSeconds)
            clock.lap(.mask)
            try scheduler.step(slot, token: token, position: position, mask: mask)
            profile?.countStep()
            clock = PhaseClock(profile)
            position += 1
        }
        result.decodeSeconds = Self.now() - decodeStarted
        return result
    }

    /// The next-token logits after `prompt` (a copy), reusing and updating a cached prefix.
    public func logits(after prompt: [Int32]) throws -> [Float] {
        try check(prompt)
        let (slot, reuse) = scheduler.acquire(prompt: prompt)
        defer { scheduler.release(slot) }
        try scheduler.prefill(slot, prompt: prompt, reuse: reuse, logits: true, mask: nil)
        return Array(slot.logits(count: model.config.vocabSize))
    }

    /// Throws for a prompt the model cannot run: empty, or not leaving a position to generate into.
    private func check(_ prompt: [Int32]) throws {
        guard !prompt.isEmpty else {
            throw LlamaRunError(message: "the prompt is empty; a request needs at least one token", isContextOverflow: false)
        }
        guard prompt.count < model.cache.capacity else {
            throw LlamaRunError(message: "the prompt has \(prompt.count) tokens but the context holds \(model.cache.capacity); shorten the prompt or instructions",
                                isContextOverflow: true)
        }
    }

    /// Asks the constraint for the next step's allowed tokens into `slot`'s mask, adding the time it took to
    /// `seconds`; nil (and no time) when there is no constraint.
    private func fillMask(_ slot: SequenceSlot, _ constraint: TokenConstraint?,
                          timing seconds: inout Double) -> UnsafePointer<UInt32>? {
        guard let constraint else { return nil }
        let started = Self.now()
        slot.mask.update(repeating: 0)
        constraint.allowedTokens(slot.mask)
        seconds += Self.now() - started
        return UnsafePointer(slot.mask.baseAddress)
    }

    /// Monotonic seconds.
    static func now() -> Double { Double(DecodeProfile.now()) / 1e9 }
}
