#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FMCore

/// A per-step restriction on the next token (FMGrammar's matcher, joined by the engine adapter).
public protocol TokenConstraint: AnyObject {
    /// Sets the bit of every token allowed next: bit `id % 32` of word `id / 32`. The mask arrives zeroed.
    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>)
    /// Told the token that was chosen (stop tokens included) before generation continues.
    func accept(_ token: Int32)
    /// An independent copy in the same state, which the generator advances over draft tokens to mask
    /// their logits; nil when the constraint cannot be copied (draft logits are then masked after the
    /// step). A copy must allow exactly what the original would after the same tokens.
    func fork() -> TokenConstraint?
}

extension TokenConstraint {
    /// No copy: draft logits are masked after the step.
    public func fork() -> TokenConstraint? { nil }
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
    /// Generated tokens the constraint allowed alone: chosen without computing their logits, and fed
    /// to the model together with the tokens before them.
    public var forcedTokens = 0
    /// Draft tokens fed after the chosen ones (looked up in the prompt and output) to check the next
    /// choices in the same step, and how many of them the choices matched.
    public var draftTokens = 0, acceptedDraftTokens = 0
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
    let scheduler: DecodeScheduler

    /// Most sequences decoding together when none is asked for: `FMEVAL_SEQUENCES` when set (1 runs
    /// requests one at a time, as before batching), else 8.
    public static var defaultMaxSequences: Int {
        if let text = getenv("FMEVAL_SEQUENCES"), let value = Int(String(cString: text)), value > 0 { return value }
        return 8
    }

    /// Most draft tokens a sequence feeds in a decode step when none is asked for: `FMEVAL_DRAFT_TOKENS`
    /// when set (0 turns drafting off), else 3.
    public static var defaultDraftTokens: Int {
        if let text = getenv("FMEVAL_DRAFT_TOKENS"), let value = Int(String(cString: text)), value >= 0 { return value }
        return 3
    }

    /// A generator over `model` (which it then owns the cache of), decoding up to `maxSequences`
    /// concurrent requests together (at most the model's `maxBatch`), each step feeding up to
    /// `draftTokens` draft tokens a sequence, and keeping up to `prefixCacheBytes` of earlier prompts'
    /// keys and values (0: only what the slots hold).
    public init(model: LlamaModel, maxSequences: Int = Generator.defaultMaxSequences,
                draftTokens: Int = Generator.defaultDraftTokens,
                prefixCacheBytes: Int = PrefixCache.defaultBudgetBytes) {
        self.model = model
        prefixCache = PrefixCache(model: model, budgetBytes: prefixCacheBytes)
        scheduler = DecodeScheduler(model: model, maxSequences: maxSequences, maxDrafts: draftTokens,
                                    prefixCache: prefixCache)
    }

    /// Earlier prompts' keys and values (a radix tree under a memory budget; budget 0: none kept).
    public let prefixCache: PrefixCache
    /// The outputs of the last requests, oldest first, where drafts are also looked up.
    let recentOutputs = Locked<[[Int32]]>([])
    /// How many recent outputs drafts are looked up in.
    static let recentOutputCount = 16

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
    ///
    /// A step feeds, besides the chosen token, tokens the constraint allowed alone (chosen without their
    /// logits) and draft tokens (see `draft`) whose logits give the next choices when the choices match
    /// them. Every token of a step gets a one-token step's floats, so the tokens are those of a run that
    /// feeds one token a step.
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
        let vocabSize = model.config.vocabSize
        // The prompt and every chosen token, and recent requests' outputs (where drafts are looked up).
        var sequence = prompt
        let earlier = recentOutputs.withLock { $0 }
        defer { remember(result.tokens) }
        // Chosen tokens not yet fed (the first goes at `position`, the number of tokens fed and kept),
        // and draft tokens fed after them, not yet checked against the choices.
        var pending: [Int32] = [], ahead: ArraySlice<Int32> = [], position = prompt.count
        defer { if !ahead.isEmpty { scheduler.discard(slot, from: position) } }
        var logits = slot.logits, next = Allowed.several, draftIndex = 0, masked = false
        let profile = model.decodeProfile
        var clock = PhaseClock(profile)
        while true {
            let sampled: Int32?
            switch next {
            case .several: sampled = sampler.sample(UnsafeBufferPointer(start: logits, count: vocabSize))
            case .one(let token): sampled = sampler.chooseForced(token)
            case .nothing: sampled = nil
            }
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
            sequence.append(token)
            var fed = ahead.first == token
            if fed {
                // The last step fed this token as a draft: the logits after it are in its draft buffer.
                ahead.removeFirst()
                position += 1
                result.acceptedDraftTokens += 1
                logits = slot.draftLogits[draftIndex]
                draftIndex += 1
            } else {
                if !ahead.isEmpty {
                    scheduler.discard(slot, from: position)
                    ahead = []
                }
                if position + pending.count >= capacity {
                    result.finishReason = .contextFull
                    break
                }
                pending.append(token)
            }
            clock = PhaseClock(profile)
            let mask = fillMask(slot, request.constraint, timing: &result.maskSeconds)
            clock.lap(.mask)
            next = mask.map { Allowed.of($0, vocabSize: vocabSize) } ?? .several
            if next != .several {
                if case .one = next { result.forcedTokens += 1 }
                continue
            }
            if fed, let mask {
                if !masked {
                    Self.apply(mask, to: logits, count: vocabSize)
                } else if !slot.draftMasks[draftIndex - 1].elementsEqual(
                    UnsafeBufferPointer(start: mask, count: slot.mask.count)) {
                    // The copy's mask differs from the constraint's: feed the token again under the real one.
                    (fed, position, ahead) = (false, position - 1, [])
                    scheduler.discard(slot, from: position)
                    pending = [token]
                }
            }
            if fed { continue }
            let room = min(scheduler.maxDrafts, request.maxTokens - result.tokens.count - 1,
                           capacity - position - pending.count)
            let drafts: ArraySlice<Int32>
            (drafts, masked) = draft(after: sequence, count: room, earlier: earlier, mask: mask, request: request,
                                     slot: slot, maskSeconds: &result.maskSeconds)
            try scheduler.step(slot, tokens: pending, drafts: drafts, masked: masked, position: position, mask: mask)
            profile?.countStep()
            clock = PhaseClock(profile)
            result.draftTokens += drafts.count
            position += pending.count
            pending.removeAll(keepingCapacity: true)
            (ahead, logits, draftIndex) = (drafts, slot.logits, 0)
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
