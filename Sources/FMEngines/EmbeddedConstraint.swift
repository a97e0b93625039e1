import FMEmbedded
import FMGrammar

/// Joins an FMGrammar matcher to the embedded generator's per-step constraint.
///
/// `always` constrains from the first token. `afterPrefix` lets the model write freely until its
/// output starts with `prefix` (the tool-call opener), then enforces the grammar — which itself
/// begins with `prefix` — for the rest; output that diverges from `prefix` stays free text.
final class EmbeddedConstraint: TokenConstraint {
    /// When the grammar applies.
    enum Activation {
        /// From the first token.
        case always
        /// Once the output starts with these bytes.
        case afterPrefix([UInt8])
    }

    private let matcher: TokenMatcher
    private let vocabulary: TokenVocabulary
    private var active: Bool
    private var undecided: Bool
    private let prefix: [UInt8]
    private var pending: [UInt8] = []
    /// True when the grammar has been enforced for this generation (from the start or after the prefix).
    private(set) var enforced: Bool

    /// A constraint over a fresh matcher of `table`.
    init(table: TokenTable, activation: Activation) {
        matcher = TokenMatcher(table: table)
        vocabulary = table.vocabulary
        switch activation {
        case .always:
            active = true
            undecided = false
            prefix = []
        case .afterPrefix(let bytes):
            active = false
            undecided = true
            prefix = bytes
        }
        enforced = active
    }

    private init(copying other: EmbeddedConstraint) {
        matcher = other.matcher.copy()
        vocabulary = other.vocabulary
        active = other.active
        undecided = other.undecided
        prefix = other.prefix
        pending = other.pending
        enforced = other.enforced
    }

    func fork() -> TokenConstraint? { EmbeddedConstraint(copying: self) }

    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>) {
        if active {
            matcher.fillNextTokenMask(mask)
        } else {
            for index in 0..<mask.count { mask[index] = UInt32.max }
        }
    }

    func accept(_ token: Int32) {
        let id = Int(token)
        if active {
            matcher.accept(id)
            return
        }
        guard undecided, id >= 0, id < vocabulary.count, !vocabulary.endTokenIDs.contains(id) else { return }
        pending += vocabulary.tokens[id]
        if pending.count < prefix.count {
            if !prefix.starts(with: pending) { undecided = false }
            return
        }
        undecided = false
        if pending.starts(with: prefix) && matcher.advance(bytes: pending) {
            active = true
            enforced = true
        }
    }
}
