/// Constrains one generation to a grammar, token by token: before each step it fills a bitmask of
/// the allowed token ids; after the step it accepts the chosen token.
///
/// A step costs a few bitmask ORs from the per-state `TokenTable` plus a check of the handful of
/// tokens whose fate depends on the enclosing rules, not a scan of the vocabulary.
public final class TokenMatcher {
    /// The grammar and vocabulary tables this matcher reads.
    public let table: TokenTable
    private var simulator: StackSimulator
    private var configurations: [Configuration]
    private var canComplete: Bool
    /// True once an end-of-generation token has been accepted.
    public private(set) var isTerminated = false
    /// The bytes accepted so far.
    public private(set) var acceptedBytes: [UInt8] = []
    private var scratch: [UInt64] = []
    private var stringRun = 0

    /// A matcher at the start of the grammar.
    public init(table: TokenTable) {
        self.table = table
        simulator = StackSimulator(grammar: table.grammar)
        configurations = simulator.initial()
        canComplete = simulator.completed
    }

    /// An independent matcher in this one's state (to look ahead without moving this one).
    public func copy() -> TokenMatcher { TokenMatcher(copying: self) }

    private init(copying other: TokenMatcher) {
        table = other.table
        simulator = other.simulator
        configurations = other.configurations
        canComplete = other.canComplete
        isTerminated = other.isTerminated
        acceptedBytes = other.acceptedBytes
        stringRun = other.stringRun
    }

    /// Returns to the start of the grammar.
    public func reset() {
        simulator = StackSimulator(grammar: table.grammar)
        configurations = simulator.initial()
        canComplete = simulator.completed
        isTerminated = false
        acceptedBytes = []
        stringRun = 0
    }

    /// True when the bytes so far form a complete document (an end token is allowed now).
    public var isComplete: Bool { canComplete }

    /// True when nothing but an end token can follow (the document is complete and cannot grow).
    public var mustEnd: Bool { configurations.isEmpty }

    /// Fills `mask` (`table.vocabulary.maskWordCount` words) with the allowed token ids: bit `id % 64`
    /// of word `id / 64`. After termination no token is allowed.
    public func fillNextTokenMask(_ mask: UnsafeMutablePointer<UInt64>) {
        let wordCount = table.vocabulary.maskWordCount
        mask.initialize(repeating: 0, count: wordCount)
        guard !isTerminated else { return }
        let vocabulary = table.vocabulary
        for configuration in configurations {
            let tokens = table.tokens(for: configuration.state)
            if let accepted = tokens.acceptedMask {
                accepted.withUnsafeBufferPointer { words in
                    for index in 0..<wordCount { mask[index] |= words[index] }
                }
            } else {
                for id in tokens.acceptedIDs { mask[Int(id) >> 6] |= 1 << UInt64(id & 63) }
            }
            for id in tokens.uncertainIDs {
                let word = Int(id) >> 6, bit: UInt64 = 1 << UInt64(id & 63)
                if mask[word] & bit != 0 { continue }
                let allowed = vocabulary.withBytes(of: Int(id)) { simulator.accepts($0, from: configuration) }
                if allowed { mask[word] |= bit }
            }
        }
        if canComplete {
            for id in vocabulary.endTokenIDs { mask[id >> 6] |= 1 << UInt64(id & 63) }
        }
        if let limit = table.grammar.options.maximumStringBytes, stringRun >= limit, isInsideString(configurations) {
            if configurations.allSatisfy({ table.grammar.isStringBody[Int($0.state)] }) {
                vocabulary.quoteStartMask.withUnsafeBufferPointer { quotes in
                    for index in 0..<wordCount { mask[index] &= quotes[index] }
                }
            } else {
                keepTokensEndingTheCharacter(mask, wordCount: wordCount)
            }
        }
    }

    /// Whether every configuration is inside a free string (its body, or within one of its characters).
    private func isInsideString(_ states: [Configuration]) -> Bool {
        !states.isEmpty && states.allSatisfy { table.grammar.isInsideString[Int($0.state)] }
    }

    /// Past the string limit in the middle of a character (a token split a UTF-8 sequence or an escape):
    /// keeps only the allowed tokens that finish the character and then end or close the string.
    private func keepTokensEndingTheCharacter(_ mask: UnsafeMutablePointer<UInt64>, wordCount: Int) {
        for word in 0..<wordCount where mask[word] != 0 {
            for bit in 0..<64 where mask[word] & (1 << UInt64(bit)) != 0 {
                let keep = table.vocabulary.withBytes(of: word * 64 + bit) { endsCharacterThenCloses($0) }
                if !keep { mask[word] &= ~(1 << UInt64(bit)) }
            }
        }
    }

    /// Whether `bytes`, from the current configurations, reach the string body only at their end or
    /// right before a closing quote.
    private func endsCharacterThenCloses(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var states = configurations
        for (offset, byte) in bytes.enumerated() {
            simulator.advance(&states, byte: byte)
            if states.isEmpty { return false }
            if states.allSatisfy({ table.grammar.isStringBody[Int($0.state)] }) {
                return offset + 1 == bytes.count || bytes[offset + 1] == UInt8(ascii: "\"")
            }
        }
        return true
    }

    /// Counts bytes written while every configuration sits inside a free string, also between the
    /// tokens of one split character (an emoji or CJK character over several tokens).
    private func updateStringRun(added: Int) {
        stringRun = isInsideString(configurations) ? stringRun + added : 0
    }

    /// Fills `mask` in 32-bit words (bit `id % 32` of word `id / 32`), the layout the embedded
    /// generator uses; words past the vocabulary stay zero.
    public func fillNextTokenMask(_ mask: UnsafeMutableBufferPointer<UInt32>) {
        if scratch.count != table.vocabulary.maskWordCount {
            scratch = [UInt64](repeating: 0, count: table.vocabulary.maskWordCount)
        }
        scratch.withUnsafeMutableBufferPointer { fillNextTokenMask($0.baseAddress!) }
        for index in 0..<mask.count {
            let word = index >> 1
            mask[index] = word < scratch.count ? UInt32(truncatingIfNeeded: scratch[word] >> UInt64((index & 1) * 32)) : 0
        }
    }

    /// Advances past raw `bytes` (text the model wrote before the constraint took over); returns
    /// false, changing nothing, when the grammar forbids them.
    @discardableResult
    public func advance(bytes: [UInt8]) -> Bool {
        guard !isTerminated else { return false }
        var trial = configurations
        var complete = canComplete
        for byte in bytes {
            if trial.isEmpty { return false }
            simulator.advance(&trial, byte: byte)
            complete = simulator.completed
            if trial.isEmpty && !complete { return false }
        }
        configurations = trial
        canComplete = complete
        acceptedBytes.append(contentsOf: bytes)
        updateStringRun(added: bytes.count)
        return true
    }

    /// The allowed token ids as an array (convenience for tests and tools; steps use `fillNextTokenMask`).
    public func allowedTokens() -> [Int] {
        var words = [UInt64](repeating: 0, count: table.vocabulary.maskWordCount)
        words.withUnsafeMutableBufferPointer { fillNextTokenMask($0.baseAddress!) }
        var result: [Int] = []
        for (index, word) in words.enumerated() where word != 0 {
            for bit in 0..<64 where word & (1 << UInt64(bit)) != 0 { result.append(index * 64 + bit) }
        }
        return result
    }

    /// Whether `id` is allowed now (checks one token; for tests and for validating a forced token).
    public func allows(_ id: Int) -> Bool {
        guard !isTerminated, id >= 0, id < table.vocabulary.count else { return false }
        if table.vocabulary.endTokenIDs.contains(id) { return canComplete }
        if table.vocabulary.specialTokenIDs.contains(id) || table.vocabulary.tokens[id].isEmpty { return false }
        return table.vocabulary.withBytes(of: id) { bytes in
            configurations.contains { simulator.accepts(bytes, from: $0) }
        }
    }

    /// Advances past token `id`; returns false (and changes nothing) when the grammar forbids it.
    @discardableResult
    public func accept(_ id: Int) -> Bool {
        guard allows(id) else { return false }
        if table.vocabulary.endTokenIDs.contains(id) {
            isTerminated = true
            configurations = []
            return true
        }
        table.vocabulary.withBytes(of: id) { bytes in
            for byte in bytes { simulator.advance(&configurations, byte: byte) }
            acceptedBytes.append(contentsOf: bytes)
        }
        canComplete = simulator.completed
        updateStringRun(added: table.vocabulary.tokens[id].count)
        return true
    }
}
