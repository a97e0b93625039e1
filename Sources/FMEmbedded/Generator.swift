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
    /// Prompt tokens whose keys and values were reused, from the KV cache or the prefix cache (cached input).
    public var reusedPromptTokens: Int
    /// Seconds spent processing the prompt (restoring the reused part, computing the rest).
    public var prefillSeconds: Double
    /// Seconds spent generating after the prompt.
    public var decodeSeconds: Double
}

/// Runs requests against a model, reusing the keys and values of earlier prompts: the KV cache's own
/// prefix (the previous request) and every prompt in `prefixCache`, so a request sharing a prefix
/// (instructions, tools) with any earlier one does not recompute it. Calls are serialized.
// @unchecked Sendable: `cachedTokens`, `exactTokens`, `mask` and the model run only under `lock`.
public final class Generator: @unchecked Sendable {
    /// The model generating.
    public let model: LlamaModel
    /// Earlier prompts' keys and values (a radix tree under a memory budget; budget 0: none kept).
    public let prefixCache: PrefixCache
    /// The tokens whose keys and values the KV cache holds, from position 0.
    private var cachedTokens: [Int32] = []
    /// How many leading `cachedTokens` hold exactly what prefilling them from scratch would: prompt
    /// tokens run in passes of two or more on top of exact ones (a pass of one token, and every
    /// generated token, runs decode-step attention, whose sums are ordered differently).
    private var exactTokens = 0
    private let mask: UnsafeMutableBufferPointer<UInt32>
    private let lock = PosixLock()

    /// A generator over `model` (which it then owns the cache of), keeping up to `prefixCacheBytes` of
    /// earlier prompts' keys and values (0: only the previous request's, in the KV cache).
    public init(model: LlamaModel, prefixCacheBytes: Int = PrefixCache.defaultBudgetBytes) {
        self.model = model
        prefixCache = PrefixCache(model: model, budgetBytes: prefixCacheBytes)
        mask = .allocate(capacity: (model.config.vocabSize + tokenMaskWordBits - 1) / tokenMaskWordBits)
    }

    /// What the prefix cache has done so far (lookups, tokens reused and restored, bytes, evictions).
    public var prefixCacheStats: PrefixCacheStats { prefixCache.stats }

    deinit {
        mask.deallocate()
    }

    /// Forgets every cached prefix, live and stored (the next request recomputes its whole prompt).
    public func resetCache() {
        lock.withLock {
            cachedTokens = []
            exactTokens = 0
            prefixCache.removeAll()
        }
    }

    /// Generates for `request`, calling `onToken` with each token as it is chosen (return false to stop).
    public func generate(_ request: GenerationRequest, onToken: (Int32) -> Bool = { _ in true }) throws -> GenerationResult {
        lock.lock()
        defer { lock.unlock() }
        let prompt = request.prompt, capacity = model.cache.capacity
        guard !prompt.isEmpty else {
            throw LlamaRunError(message: "the prompt is empty; a request needs at least one token", isContextOverflow: false)
        }
        guard prompt.count < capacity else {
            throw LlamaRunError(message: "the prompt has \(prompt.count) tokens but the context holds \(capacity); shorten the prompt or instructions",
                                isContextOverflow: true)
        }
        let started = Self.now()
        let reuse = reusePrefix(of: prompt)

        var sampler = Sampler(request.sampling)
        var result = GenerationResult(tokens: [], finishReason: .length, promptTokens: prompt.count,
                                      reusedPromptTokens: reuse, prefillSeconds: 0, decodeSeconds: 0)
        result.tokens.reserveCapacity(max(0, request.maxTokens))
        guard request.maxTokens > 0 else {
            try prompt.withUnsafeBufferPointer {
                try model.forward(UnsafeBufferPointer(rebasing: $0[reuse...]), startPosition: reuse, computeLogits: false)
            }
            didPrefill(prompt, from: reuse)
            result.prefillSeconds = Self.now() - started
            return result
        }
        let maskPointer = fillMask(request.constraint)
        try prompt.withUnsafeBufferPointer {
            try model.forward(UnsafeBufferPointer(rebasing: $0[reuse...]), startPosition: reuse, mask: maskPointer)
        }
        didPrefill(prompt, from: reuse)
        let decodeStarted = Self.now()
        result.prefillSeconds = decodeStarted - started

        var position = prompt.count
        while true {
            guard let token = sampler.sample(model.logits) else {
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
            let stepMask = fillMask(request.constraint)
            var next = token
            try withUnsafePointer(to: &next) {
                try model.forward(UnsafeBufferPointer(start: $0, count: 1), startPosition: position, mask: stepMask)
            }
            cachedTokens.append(token)
            position += 1
        }
        result.decodeSeconds = Self.now() - decodeStarted
        return result
    }

    /// The next-token logits after `prompt` (a copy), reusing and updating the cached prefix.
    public func logits(after prompt: [Int32]) throws -> [Float] {
        _ = try generate(GenerationRequest(prompt: prompt, maxTokens: 1)) { _ in false }
        return lock.withLock { Array(model.logits) }
    }

    /// Readies the KV cache for `prompt` and returns how many of its leading tokens need no
    /// recomputing: those the KV cache already holds (as before the prefix cache existed: up to all
    /// but the last token), or more restored from the prefix cache. A restore stops where the rest of
    /// the prompt runs in passes like a cold run's last pass (one token alone only when a cold run
    /// would), so a restored prompt gets the cold run's logits bit for bit.
    private func reusePrefix(of prompt: [Int32]) -> Int {
        let limit = prompt.count - 1
        var live = 0
        while live < min(cachedTokens.count, limit) && cachedTokens[live] == prompt[live] { live += 1 }
        let stored = coldAligned(min(prefixCache.longestPrefix(of: prompt), limit), promptCount: prompt.count)
        var reuse = live, restored = 0
        if stored > live {
            let from = min(live, exactTokens)
            prefixCache.restore(tokens: prompt, count: stored, into: model.cache, from: from)
            (reuse, restored, exactTokens) = (stored, stored - from, stored)
        } else {
            exactTokens = min(exactTokens, live)
        }
        prefixCache.record(promptTokens: prompt.count, reusedTokens: reuse, restoredTokens: restored)
        cachedTokens = Array(prompt[..<reuse])
        return reuse
    }

    /// The largest reuse up to `candidate` after which the prompt's last pass has one token exactly
    /// when a cold run's has (prefill and decode-step attention sum in different orders).
    private func coldAligned(_ candidate: Int, promptCount: Int) -> Int {
        let coldAlone = (promptCount - 1) % model.maxBatch == 0
        var reuse = candidate
        while reuse > 0 && ((promptCount - reuse - 1) % model.maxBatch == 0) != coldAlone { reuse -= 1 }
        return reuse
    }

    /// Notes that the KV cache now holds `prompt`, prefilled from position `start`, and stores its
    /// exact part in the prefix cache: what a cold run would hold, so not a last pass of one token
    /// (decode-step attention) nor anything computed on top of inexact keys and values.
    private func didPrefill(_ prompt: [Int32], from start: Int) {
        let lastPass = (prompt.count - start - 1) % model.maxBatch + 1
        cachedTokens = prompt
        if exactTokens == start { exactTokens = lastPass == 1 ? prompt.count - 1 : prompt.count }
        prefixCache.store(tokens: Array(prompt[..<exactTokens]), from: model.cache)
    }

    /// Asks the constraint for the next step's allowed tokens; nil when there is no constraint.
    private func fillMask(_ constraint: TokenConstraint?) -> UnsafePointer<UInt32>? {
        guard let constraint else { return nil }
        mask.update(repeating: 0)
        constraint.allowedTokens(mask)
        return UnsafePointer(mask.baseAddress)
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
