/// A change to a session's history between two prompts (Foundation Models 27's mutable transcript, the
/// recovery idiom after `contextSizeExceeded`): drop entries of some kinds, then keep only the most recent.
/// The instructions entry always stays.
public struct TranscriptEdit: Codable, Hashable, Sendable {
    /// The kinds of history entry an edit can drop, named as in the transcript JSON.
    public enum EntryKind: String, Codable, Hashable, Sendable, CaseIterable {
        /// A prompt from the user.
        case prompt
        /// A response from the model.
        case response
        /// The model's reasoning.
        case reasoning
        /// Tool calls the model made.
        case toolCalls
        /// The output of one tool call.
        case toolOutput

        /// The kind of `entry`; nil for the instructions, which no edit removes.
        public init?(_ entry: Transcript.Entry) {
            switch entry {
            case .instructions: return nil
            case .prompt: self = .prompt
            case .response: self = .response
            case .reasoning: self = .reasoning
            case .toolCalls: self = .toolCalls
            case .toolOutput: self = .toolOutput
            }
        }
    }

    /// History entries of these kinds are removed first.
    public var drop: [EntryKind]
    /// Then only the last this-many history entries stay (nil: all that are left).
    public var keepLast: Int?

    /// Creates an edit.
    public init(drop: [EntryKind] = [], keepLast: Int? = nil) {
        self.drop = drop
        self.keepLast = keepLast
    }

    /// `transcript` with the edit applied: the instructions entry, then the remaining history.
    public func applied(to transcript: Transcript) -> Transcript {
        var edited = transcript
        var history = transcript.history.filter { entry in EntryKind(entry).map { !drop.contains($0) } ?? true }
        if let keepLast, history.count > keepLast { history = Array(history.suffix(max(0, keepLast))) }
        edited.history = history
        return edited
    }
}

extension Transcript {
    /// The entries after the instructions (Foundation Models 27's `Transcript.history`); setting it keeps
    /// the instructions entry and replaces everything else.
    public var history: [Entry] {
        get {
            guard case .instructions? = entries.first else { return entries }
            return Array(entries.dropFirst())
        }
        set {
            guard case .instructions(let instructions)? = entries.first else {
                entries = newValue
                return
            }
            entries = [.instructions(instructions)] + newValue
        }
    }
}
