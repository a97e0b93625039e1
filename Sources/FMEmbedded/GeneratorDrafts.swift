/// How many tokens a step's mask allows, and which one when it allows exactly one.
enum Allowed: Equatable {
    case nothing, one(Int32), several

    /// What `mask` allows among the first `vocabSize` ids (it stops counting at two).
    static func of(_ mask: UnsafePointer<UInt32>, vocabSize: Int) -> Allowed {
        var found: Int32?
        for word in 0..<(vocabSize + tokenMaskWordBits - 1) / tokenMaskWordBits where mask[word] != 0 {
            var bits = mask[word]
            let tail = vocabSize - word * tokenMaskWordBits
            if tail < tokenMaskWordBits { bits &= (1 << UInt32(tail)) - 1 }
            guard bits != 0 else { continue }
            guard found == nil, bits & (bits - 1) == 0 else { return .several }
            found = Int32(word * tokenMaskWordBits + bits.trailingZeroBitCount)
        }
        return found.map { .one($0) } ?? .nothing
    }
}

extension Generator {
    /// The draft tokens to feed after the chosen ones: up to `count` looked up in `sequence`, cut before
    /// a stop token and, under a constraint, before the first one its masks forbid. When the constraint
    /// forks, the copy walks the drafts and leaves the mask for each one's logits in the slot's
    /// `draftMasks` (`masked` true); otherwise the logits are masked when they are used.
    func draft(after sequence: [Int32], count: Int, earlier: [[Int32]], mask: UnsafePointer<UInt32>?,
               request: GenerationRequest, slot: SequenceSlot,
               maskSeconds: inout Double) -> (ArraySlice<Int32>, masked: Bool) {
        var drafts = PromptLookup.draft(after: sequence, count: count, earlier: earlier)
        if let stop = drafts.firstIndex(where: request.stopTokens.contains) { drafts = drafts[..<stop] }
        guard let first = drafts.first, let mask, let constraint = request.constraint else { return (drafts, false) }
        guard tokenAllowed(Int(first), by: mask) else { return ([], false) }
        guard let copy = constraint.fork() else { return (drafts, false) }
        let started = Self.now()
        defer { maskSeconds += Self.now() - started }
        var kept = drafts.startIndex
        for (i, token) in zip(0..., drafts) {
            copy.accept(token)
            let draftMask = slot.draftMasks[i]
            draftMask.update(repeating: 0)
            copy.allowedTokens(draftMask)
            kept += 1
            let allowed = UnsafePointer(draftMask.baseAddress!)
            guard kept < drafts.endIndex, tokenAllowed(Int(drafts[kept]), by: allowed) else { break }
        }
        return (drafts[..<kept], true)
    }

    /// Keeps `output` among the recent outputs drafts are looked up in (the last `recentOutputCount`).
    func remember(_ output: [Int32]) {
        guard scheduler.maxDrafts > 0, output.count > 1 else { return }
        recentOutputs.withLock {
            if $0.count == Self.recentOutputCount { $0.removeFirst() }
            $0.append(output)
        }
    }

    /// Sets the logits of every token `mask` forbids to -infinity, as the output layer does under a mask.
    static func apply(_ mask: UnsafePointer<UInt32>, to logits: UnsafeMutablePointer<Float>, count: Int) {
        for word in 0..<(count + tokenMaskWordBits - 1) / tokenMaskWordBits where mask[word] != .max {
            for bit in 0..<tokenMaskWordBits where (mask[word] >> UInt32(bit)) & 1 == 0 {
                let id = word * tokenMaskWordBits + bit
                if id < count { logits[id] = -.infinity }
            }
        }
    }
}
