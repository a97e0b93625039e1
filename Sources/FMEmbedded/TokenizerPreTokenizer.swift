/// Splits text into the pieces BPE runs on, by hand (no regex engine).
///
/// `smollm` (also StarCoder, Refact, Command-R, CodeShell, EXAONE, Minerva) first isolates every
/// `\p{N}` character, then applies the GPT-2 split to each stretch in between; `gpt2` applies the GPT-2
/// split alone. The GPT-2 split is the pattern
/// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`, where lookahead stops at
/// the end of the stretch being split (llama.cpp's semantics).
public enum PreTokenizer: String, Sendable, CaseIterable {
    /// Each digit its own piece, then the GPT-2 split.
    case smollm
    /// The GPT-2 split alone.
    case gpt2

    /// The pre-tokenizer for a `tokenizer.ggml.pre` value, or nil when it is not one of these.
    public init?(ggufName: String) {
        switch ggufName {
        case "smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b": self = .smollm
        case "gpt-2", "gpt2", "mpt", "olmo", "jais", "trillion": self = .gpt2
        default: return nil
        }
    }

    /// The pieces of `scalars`, as index ranges into it, covering it without gaps.
    func split(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        pieces.reserveCapacity(scalars.count / 3 + 1)
        switch self {
        case .gpt2:
            Self.splitGPT2(scalars, 0 ..< scalars.count, into: &pieces)
        case .smollm:
            var start = 0
            for index in scalars.indices where TokenizerUnicode.flags(scalars[index]).contains(.number) {
                if start < index { Self.splitGPT2(scalars, start ..< index, into: &pieces) }
                pieces.append(index ..< index + 1)
                start = index + 1
            }
            if start < scalars.count { Self.splitGPT2(scalars, start ..< scalars.count, into: &pieces) }
        }
        return pieces
    }

    /// The GPT-2 split of `scalars[range]`, appended to `pieces`.
    static func splitGPT2(_ scalars: [Unicode.Scalar], _ range: Range<Int>, into pieces: inout [Range<Int>]) {
        let end = range.upperBound
        typealias Flags = TokenizerUnicode.Flags
        func flags(_ position: Int) -> Flags {
            position < end ? TokenizerUnicode.flags(scalars[position]) : []
        }
        func scalar(_ position: Int) -> UInt32 { position < end ? scalars[position].value : UInt32.max }
        let apostrophe: UInt32 = 0x27, space: UInt32 = 0x20
        var position = range.lowerBound
        var pieceStart = position
        func emit(_ upTo: Int) {
            if pieceStart < upTo { pieces.append(pieceStart ..< upTo) }
            pieceStart = upTo
            position = upTo
        }
        while position < end {
            let current = scalar(position)
            if current == apostrophe {
                let next = scalar(position + 1)
                if next == 0x73 || next == 0x74 || next == 0x6D || next == 0x64 { // 's 't 'm 'd
                    emit(position + 2)
                    continue
                }
                let third = scalar(position + 2)
                if (next == 0x72 && third == 0x65) || (next == 0x76 && third == 0x65) || (next == 0x6C && third == 0x6C) {
                    emit(position + 3) // 're 've 'll
                    continue
                }
            }
            let leadFlags = current == space ? flags(position + 1) : flags(position)
            let skip = current == space ? 1 : 0
            if leadFlags.contains(.letter) || leadFlags.contains(.number) {
                let kind: Flags = leadFlags.contains(.letter) ? .letter : .number
                var cursor = position + skip
                while flags(cursor).contains(kind) { cursor += 1 }
                emit(cursor)
                continue
            }
            func isOther(_ f: Flags) -> Bool {
                f.contains(.defined) && !f.contains(.whitespace) && !f.contains(.letter) && !f.contains(.number)
            }
            if isOther(leadFlags) {
                var cursor = position + skip
                while isOther(flags(cursor)) { cursor += 1 }
                emit(cursor)
                continue
            }
            var spaces = 0
            while flags(position + spaces).contains(.whitespace) { spaces += 1 }
            if spaces > 1 && position + spaces < end {
                emit(position + spaces - 1) // \s+(?!\S): leave the last one to lead the next piece
                continue
            }
            if spaces > 0 {
                emit(position + spaces)
                continue
            }
            emit(position + 1)
        }
    }
}
