/// Something a run says before it starts that is not an error: what it is (`kind`, the suites it is about)
/// for code to read, and `text`, the line people read.
public struct RunNote: Hashable, Sendable, CustomStringConvertible {
    /// What the note is about.
    public enum Kind: String, Hashable, Sendable {
        /// `--shard` selected none of the cases.
        case emptyShard
        /// Where `--shard auto` found the shard, and how `--shard-balance history` split the cases.
        case shardChoice
        /// Engine flags that do not apply to cases scored from recorded transcripts.
        case flagsSkipRecordedCases
        /// Engine flags that do not apply to scripted stand-ins for Apple's model.
        case flagsSkipStandIns
        /// Engine flags that put cases written for a scripted engine on another engine, unplayed.
        case flagsReplaceScriptedEngine
    }

    /// What the note is about.
    public var kind: Kind
    /// The suites it concerns, sorted (empty when it concerns the whole run).
    public var suites: [String]
    /// The line as printed.
    public var text: String

    /// Creates a note.
    public init(_ kind: Kind, suites: [String] = [], text: String) {
        self.kind = kind
        self.suites = suites
        self.text = text
    }

    /// The line as printed.
    public var description: String { text }
}
