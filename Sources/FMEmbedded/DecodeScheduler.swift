#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One sequence's place in the model: its KV cache (the tokens it holds, for prefix reuse), its
/// next-token logits and token mask, and its hand-off to the decode step.
///
/// Owned by one request while `busy`. `tokens` changes only under the scheduler's lock, and only after
/// the keys and values of its positions are in the cache; the owner writes only positions past it.
final class SequenceSlot {
    /// The sequence's keys and values (slot 0: the model's own cache).
    let cache: KVCache
    /// The next-token logits (slot 0: the model's `logits`).
    let logits: UnsafeMutablePointer<Float>
    /// The logits after each draft token of a step, and the masks for them (when `draftsMasked`).
    let draftLogits: [UnsafeMutablePointer<Float>], draftMasks: [UnsafeMutableBufferPointer<UInt32>]
    /// The allowed-token mask the request fills before each step.
    let mask: UnsafeMutableBufferPointer<UInt32>
    /// The tokens whose keys and values `cache` holds, from position 0.
    var tokens: [Int32] = []
    /// How many leading `tokens` hold exactly what prefilling them from scratch would: prompt tokens
    /// run in passes of two or more on top of exact ones (a pass of one token, and every generated
    /// token, runs decode-step attention, whose sums are ordered differently). Only these go into the
    /// prefix cache.
    var exactTokens = 0
    /// True while a request owns the slot.
    var busy = false
    /// When the slot was last released (for least-recently-used choice).
    var lastUsed: UInt64 = 0
    /// Set by `resetCache` while busy: forget `tokens` on release.
    var forgetOnRelease = false
    /// True from the request's submitting tokens until a decode step has fed them.
    var waiting = false
    /// The submitted tokens (the first at `position`, the rest after it), the mask for the logits
    /// after the last, and how many draft tokens follow them (their logits go to `draftLogits`).
    var pending: [Int32] = [], position = 0, nextMask: UnsafePointer<UInt32>?, drafts: ArraySlice<Int32> = []
    /// Whether `draftMasks` hold the masks for the drafts' logits (else they are computed unmasked).
    var draftsMasked = false
    /// The error of the step that fed the submitted token, if it failed.
    var stepError: Error?
    private let ownsLogits: Bool

    /// A slot over `cache`, writing logits to `logits` (or to its own buffer when nil), with room for
    /// the logits of `drafts` draft tokens a step.
    init(cache: KVCache, logits: UnsafeMutablePointer<Float>?, vocabSize: Int, drafts: Int) {
        self.cache = cache
        ownsLogits = logits == nil
        self.logits = logits ?? .allocate(capacity: vocabSize)
        if ownsLogits { self.logits.initialize(repeating: 0, count: vocabSize) }
        draftLogits = (0..<drafts).map { _ in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: vocabSize)
            buffer.initialize(repeating: 0, count: vocabSize)
            return buffer
        }
        let words = (vocabSize + tokenMaskWordBits - 1) / tokenMaskWordBits
        mask = .allocate(capacity: words)
        mask.initialize(repeating: 0)
        draftMasks = (0..<drafts).map { _ in
            let buffer = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: words)
            buffer.initialize(repeating: 0)
            return buffer
        }
    }

    deinit {
        if ownsLogits { logits.deallocate() }
        for buffer in draftLogits { buffer.deallocate() }
        for buffer in draftMasks { buffer.deallocate() }
        mask.deallocate()
    }

    /// The next-token logits as a buffer of `count` floats.
    func logits(count: Int) -> UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: logits, count: count) }
}

/// How many decode steps ran and how many sequences they fed (`Generator.decodeStats`).
public struct DecodeStats: Sendable, Equatable {
    /// Decode steps (forward passes after prefill): one per batch, more when a batch holds more than
    /// the model's `maxBatch` tokens.
    public var steps = 0
    /// Tokens those steps fed, over all sequences (draft tokens and tokens a constraint forced included).
    public var tokens = 0
    /// The most sequences one step fed.
    public var largestBatch = 0
    /// The most tokens one forward pass fed.
    public var largestPass = 0
}

/// Continuous batching over one model: sequence slots, one forward pass at a time, and decode steps
/// that feed every decoding sequence's next token together.
///
/// A request takes a slot (the idle one sharing the longest prompt prefix, else a new one up to
/// `maxSequences`, else it waits), prefills it when the model is free (a waiting prefill goes before
/// the next decode step, so new requests join the batch early), then joins the decoding sequences.
/// Each request picks its tokens and fills its mask in its own thread; a decode step runs when every
/// decoding sequence has submitted its next token, on the thread that completes the batch. A request
/// that finishes, is cancelled or fails leaves the batch, so the others never wait for it.
// @unchecked Sendable: every field is read and written under `lock`, except the step buffers
// (`batchSlots`, `inputs`), which only the thread holding `modelBusy` touches.
final class DecodeScheduler: @unchecked Sendable {
    /// Most sequences decoding at once (and slots allocated).
    let maxSequences: Int
    /// Most draft tokens a sequence feeds in one step.
    let maxDrafts: Int
    private let model: LlamaModel
    private let prefixCache: PrefixCache
    private let lock = PosixLock()
    private var slots: [SequenceSlot] = []
    private var modelBusy = false
    private var prefillsWaiting = 0
    private var decoding = 0
    private var submitted = 0
    private var releases: UInt64 = 0
    private var statistics = DecodeStats()
    private var batchSlots: [SequenceSlot] = []
    private var inputs: [DecodeInput] = []

    /// A scheduler over `model` decoding at most `maxSequences` sequences together, each feeding up to
    /// `maxDrafts` draft tokens a step, restoring prompt prefixes from and storing them into `prefixCache`.
    init(model: LlamaModel, maxSequences: Int, maxDrafts: Int, prefixCache: PrefixCache) {
        self.model = model
        self.prefixCache = prefixCache
        self.maxSequences = max(1, min(maxSequences, model.maxBatch))
        self.maxDrafts = max(0, maxDrafts)
        slots.append(SequenceSlot(cache: model.cache, logits: model.buffers.logits, vocabSize: model.config.vocabSize,
                                  drafts: self.maxDrafts))
        batchSlots.reserveCapacity(self.maxSequences)
        inputs.reserveCapacity(self.maxSequences)
    }

    /// The steps run so far.
    var stats: DecodeStats { lock.withLock { statistics } }

    /// Forgets every slot's cached tokens (a busy slot's when its request ends).
    func forgetCachedTokens() {
        lock.withLock {
            for slot in slots {
                if slot.busy { slot.forgetOnRelease = true } else { (slot.tokens, slot.exactTokens) = ([], 0) }
            }
        }
    }

    /// Takes a slot for `prompt`: the idle one sharing the longest exact prefix with it (least recently
    /// used on a tie), else a new one while fewer than `maxSequences` exist, else waits for one. When
    /// another slot (busy or not) holds a longer exact shared prefix, its keys and values are copied over
    /// (positions it holds are never rewritten while it is taken, and slots change hands only under the
    /// lock); when the prefix cache holds a longer one still, it is restored from there. Only exact keys
    /// and values are reused, and the rest of the prompt runs in passes shaped like a cold run's, so the
    /// logits are a cold run's bit for bit whatever ran before (see `restore`). Returns the slot and how
    /// many leading prompt tokens its cache now holds (never the whole prompt: the last token is always
    /// run, for its logits).
    func acquire(prompt: [Int32]) -> (SequenceSlot, reuse: Int) {
        lock.lock()
        defer { lock.unlock() }
        while true {
            var best: (slot: SequenceSlot, reuse: Int)?
            for slot in slots where !slot.busy {
                let reuse = Self.exactSharedPrefix(slot, prompt)
                if let current = best, current.reuse > reuse || (current.reuse == reuse && current.slot.lastUsed <= slot.lastUsed) {
                    continue
                }
                best = (slot, reuse)
            }
            if best == nil && slots.count < maxSequences {
                let slot = SequenceSlot(cache: model.makeCache(), logits: nil, vocabSize: model.config.vocabSize,
                                        drafts: maxDrafts)
                slots.append(slot)
                best = (slot, 0)
            }
            if let (slot, reuse) = best {
                slot.busy = true
                slot.tokens.removeSubrange(reuse...)
                slot.exactTokens = reuse
                var longest = (source: slot, shared: reuse)
                for other in slots where other !== slot && !other.forgetOnRelease {
                    let shared = Self.exactSharedPrefix(other, prompt)
                    if shared > longest.shared { longest = (other, shared) }
                }
                if longest.shared > reuse {
                    slot.cache.copyPositions(reuse..<longest.shared, from: longest.source.cache)
                    slot.tokens = Array(prompt[..<longest.shared])
                    slot.exactTokens = longest.shared
                }
                return (slot, restore(prompt, into: slot))
            }
            lock.wait()
        }
    }

    /// Extends what `slot` holds of `prompt` (all of it exact) from the prefix cache when the tree holds
    /// more, then cuts the reuse back where needed so that the rest of the prompt runs in passes shaped
    /// like a cold run's last pass (a token alone, whose attention runs decode-step arithmetic, only when
    /// a cold run's is), and records the lookup; returns how many leading tokens need no recomputing.
    private func restore(_ prompt: [Int32], into slot: SequenceSlot) -> Int {
        let held = slot.exactTokens
        let stored = min(prefixCache.longestPrefix(of: prompt), prompt.count - 1)
        let reuse = coldAligned(max(held, stored), promptCount: prompt.count)
        var restored = 0
        if reuse > held {
            prefixCache.restore(tokens: prompt, count: reuse, into: slot.cache, from: held)
            restored = reuse - held
        }
        slot.tokens = Array(prompt[..<reuse])
        slot.exactTokens = reuse
        prefixCache.record(promptTokens: prompt.count, reusedTokens: reuse, restoredTokens: restored)
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

    /// Gives `slot` back (its cache keeps the tokens it holds for the next request's prefix).
    func release(_ slot: SequenceSlot) {
        lock.withLock {
            slot.busy = false
            if slot.forgetOnRelease { (slot.tokens, slot.exactTokens) = ([], 0) }
            slot.forgetOnRelease = false
            releases += 1
            slot.lastUsed = releases
            lock.broadcast()
        }
    }

    /// Runs `prompt[reuse...]` into `slot`'s cache once the model is free (before any decode step
    /// that is waiting); with `logits`, the last token's logits under `mask` land in the slot's.
    func prefill(_ slot: SequenceSlot, prompt: [Int32], reuse: Int, logits: Bool, mask: UnsafePointer<UInt32>?) throws {
        lock.withLock {
            prefillsWaiting += 1
            while modelBusy { lock.wait() }
            prefillsWaiting -= 1
            modelBusy = true
        }
        var succeeded = false
        defer { if succeeded { storeExactPrefix(of: prompt, prefilledFrom: reuse, in: slot) } }
        defer {
            lock.withLock {
                if succeeded { slot.tokens = prompt }
                modelBusy = false
                lock.broadcast()
            }
        }
        try prompt.withUnsafeBufferPointer {
            try model.forward(UnsafeBufferPointer(rebasing: $0[reuse...]), startPosition: reuse, cache: slot.cache,
                              logits: logits ? slot.logits : nil, mask: mask)
        }
        succeeded = true
    }

    /// Notes that `slot` holds `prompt`, prefilled from position `start`, and stores its exact part in
    /// the prefix cache: what a cold run would hold, so not a last pass of one token (decode-step
    /// attention; `acquire` reuses only exact tokens, so everything before `start` is). The slot's
    /// request owns it.
    private func storeExactPrefix(of prompt: [Int32], prefilledFrom start: Int, in slot: SequenceSlot) {
        let lastPass = (prompt.count - start - 1) % model.maxBatch + 1
        let exact = lock.withLock {
            slot.exactTokens = lastPass == 1 ? prompt.count - 1 : prompt.count
            return slot.exactTokens
        }
        prefixCache.store(tokens: Array(prompt[..<exact]), from: slot.cache)
    }

    /// Counts the slot's request among the decoding sequences (after its prefill): decode steps
    /// wait for its next token from now on.
    func join() {
        lock.withLock { decoding += 1 }
    }

    /// Takes the slot's request out of the decoding sequences (finished, cancelled or failed).
    func leave() {
        lock.withLock {
            decoding -= 1
            lock.broadcast()
        }
    }

    /// Feeds `tokens` at `position` onwards into `slot`'s cache in the next decode step, leaving the
    /// logits after the last (under `mask`) in the slot's, then `drafts` (at most `maxDrafts`) after
    /// them, the logits after each in the slot's `draftLogits` (under its `draftMasks` when `masked`);
    /// returns when that step has run. The calling thread runs the step itself when its tokens
    /// complete the batch.
    func step(_ slot: SequenceSlot, tokens: [Int32], drafts: ArraySlice<Int32> = [], masked: Bool = false,
              position: Int, mask: UnsafePointer<UInt32>?) throws {
        precondition(!tokens.isEmpty && drafts.count <= maxDrafts)
        lock.lock()
        slot.pending = tokens
        slot.drafts = drafts
        slot.draftsMasked = masked
        slot.position = position
        slot.nextMask = mask
        slot.waiting = true
        submitted += 1
        while slot.waiting {
            if !modelBusy && prefillsWaiting == 0 && submitted == decoding {
                runStep()
            } else {
                lock.wait()
            }
        }
        let error = slot.stepError
        slot.stepError = nil
        if error == nil { slot.tokens += tokens; slot.tokens += drafts }
        lock.unlock()
        if let error { throw error }
    }

    /// Forgets what `slot`'s cache holds from `position` on (draft tokens its request did not keep;
    /// the next step overwrites their keys and values).
    func discard(_ slot: SequenceSlot, from position: Int) {
        lock.withLock { if position < slot.tokens.count { slot.tokens.removeSubrange(position...) } }
    }

    /// Runs one decode step over every waiting slot; called and returns holding `lock`, which it
    /// releases while the model runs.
    private func runStep() {
        modelBusy = true
        batchSlots.removeAll(keepingCapacity: true)
        for slot in slots where slot.waiting { batchSlots.append(slot) }
        submitted = 0
        lock.unlock()
        var failure: Error?
        var passes = 0, largest = 0
        do {
            if batchSlots.count == 1 && batchSlots[0].pending.count == 1 && batchSlots[0].drafts.isEmpty {
                let slot = batchSlots[0]
                try slot.pending.withUnsafeBufferPointer {
                    try model.forward($0, startPosition: slot.position, cache: slot.cache, logits: slot.logits,
                                      mask: slot.nextMask)
                }
                (passes, largest) = (1, 1)
            } else {
                inputs.removeAll(keepingCapacity: true)
                for slot in batchSlots {
                    let last = slot.pending.count - 1
                    for (j, token) in slot.pending.enumerated() {
                        inputs.append(DecodeInput(token: token, position: slot.position + j, cache: slot.cache,
                                                  logits: j == last ? slot.logits : nil,
                                                  mask: j == last ? slot.nextMask : nil))
                    }
                    for (i, token) in slot.drafts.enumerated() {
                        let mask = slot.draftsMasked ? UnsafePointer(slot.draftMasks[i].baseAddress) : nil
                        inputs.append(DecodeInput(token: token, position: slot.position + last + 1 + i,
                                                  cache: slot.cache, logits: slot.draftLogits[i], mask: mask))
                    }
                }
                // A sequence's tokens are consecutive, so passes of `maxBatch` feed each in order.
                try inputs.withUnsafeBufferPointer { all in
                    for start in stride(from: 0, to: all.count, by: model.maxBatch) {
                        let pass = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + model.maxBatch)])
                        try model.decode(pass)
                        passes += 1
                        largest = max(largest, pass.count)
                    }
                }
            }
        } catch {
            failure = error
        }
        lock.lock()
        for slot in batchSlots {
            slot.waiting = false
            slot.stepError = failure
        }
        statistics.steps += passes
        statistics.tokens += batchSlots.reduce(0) { $0 + $1.pending.count + $1.drafts.count }
        statistics.largestBatch = max(statistics.largestBatch, batchSlots.count)
        statistics.largestPass = max(statistics.largestPass, largest)
        modelBusy = false
        lock.broadcast()
    }

    /// How many leading tokens of `prompt` `slot` holds exactly (as a cold prefill would), at most
    /// `prompt.count - 1`.
    static func exactSharedPrefix(_ slot: SequenceSlot, _ prompt: [Int32]) -> Int {
        min(sharedPrefix(slot.tokens, prompt), slot.exactTokens)
    }

    /// How many leading tokens `cached` and `prompt` share, at most `prompt.count - 1`.
    static func sharedPrefix(_ cached: [Int32], _ prompt: [Int32]) -> Int {
        var shared = 0
        let limit = min(cached.count, prompt.count - 1)
        while shared < limit && cached[shared] == prompt[shared] { shared += 1 }
        return shared
    }
}

extension KVCache {
    /// Copies the keys and values of `positions` in every layer from `source`, a cache of the same shape.
    func copyPositions(_ positions: Range<Int>, from source: KVCache) {
        precondition(source.layerCount == layerCount && source.kvDim == kvDim && source.capacity == capacity
                     && positions.upperBound <= capacity)
        let (first, count) = (positions.lowerBound, positions.count)
        for layer in 0..<layerCount {
            (keys(layer: layer) + first * kvDim).update(from: source.keys(layer: layer) + first * kvDim, count: count * kvDim)
            let values = values(layer: layer), from = source.values(layer: layer)
            for i in 0..<kvDim {
                (values + i * capacity + first).update(from: from + i * capacity + first, count: count)
            }
        }
    }
}
