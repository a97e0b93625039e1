/// Draft tokens for speculative decoding, looked up in the sequence itself and in recent outputs
/// (prompt lookup): the tokens that followed the most recent earlier occurrence of the sequence's last
/// few tokens. Small models copy much of what they write from their prompt (names, the field keys of a
/// schema the instructions spell out, values of a ticket being triaged) and repeat the shape of their
/// earlier answers, and a draft costs no model of its own.
enum PromptLookup {
    /// The longest tail matched (then shorter ones, down to one token).
    static let longestTail = 3

    /// Up to `count` tokens that followed the most recent earlier occurrence of `sequence`'s last `n`
    /// tokens, for the largest `n` up to `longestTail` that occurs in `sequence`, or in `earlier`
    /// (searched from the last) when it holds a longer match; empty when none does.
    static func draft(after sequence: [Int32], count: Int, earlier: [[Int32]] = []) -> ArraySlice<Int32> {
        guard count > 0 else { return [] }
        var best: ArraySlice<Int32> = [], matched = 0
        for n in stride(from: min(longestTail, sequence.count - 1), through: 1, by: -1) {
            if let start = lastOccurrence(of: sequence.suffix(n), in: sequence) {
                (best, matched) = (sequence[(start + n)..<min(sequence.count, start + n + count)], n)
                break
            }
        }
        for past in earlier.reversed() where matched < longestTail {
            for n in stride(from: min(longestTail, sequence.count), to: matched, by: -1) {
                if let start = lastOccurrence(of: sequence.suffix(n), in: past) {
                    (best, matched) = (past[(start + n)..<min(past.count, start + n + count)], n)
                    break
                }
            }
        }
        return best
    }

    /// Where `tail` last occurs in `haystack` with at least one token after it.
    private static func lastOccurrence(of tail: ArraySlice<Int32>, in haystack: [Int32]) -> Int? {
        let n = tail.count, first = tail[tail.startIndex]
        var start = haystack.count - n - 1
        while start >= 0 {
            if haystack[start] == first && haystack[start..<(start + n)].elementsEqual(tail) { return start }
            start -= 1
        }
        return nil
    }
}
