/// One parse configuration: the current state of the innermost rule, plus the stack of states to
/// return to (an index into `StackSimulator.frames`, or a sentinel at the bottom).
struct Configuration: Hashable {
    /// The current global state; always one with byte transitions.
    var state: Int32
    /// The frame below: a frame index, `StackSimulator.root` or `StackSimulator.escape`.
    var parent: Int32
}

/// Runs a `Grammar` over bytes with a set of configurations (the grammar may be ambiguous across
/// `anyOf` branches). Stack frames are hash-consed so equal stacks share one index.
struct StackSimulator {
    /// Bottom sentinel of a real parse: popping it means the document is complete.
    static let root: Int32 = -1
    /// Bottom sentinel of a context-free probe: popping it means the rest depends on the caller.
    static let escape: Int32 = -2

    /// The grammar being run.
    let grammar: Grammar
    /// Frames: the state to return to and the frame below it.
    private(set) var frames: [Configuration] = []
    private var frameIndex: [UInt64: Int32] = [:]
    /// Set by the last expansion when some configuration popped the bottom sentinel.
    private(set) var completed = false
    /// Set by the last expansion when some configuration popped the `escape` sentinel.
    private(set) var escaped = false

    /// The outcome of running a byte sequence from the start.
    enum Outcome {
        /// No configuration survives.
        case rejected
        /// Some configuration survives, but the document is not complete.
        case prefix
        /// The bytes form a complete document.
        case complete
    }

    /// A simulator with an empty frame store.
    init(grammar: Grammar) { self.grammar = grammar }

    /// The frame `index` (a return state and the frame below it).
    func frame(_ index: Int32) -> Configuration { frames[Int(index)] }

    /// Pushes (hash-consed) a frame returning to `state` above `parent`.
    mutating func push(_ state: Int32, above parent: Int32) -> Int32 {
        let key = UInt64(UInt32(bitPattern: state)) << 32 | UInt64(UInt32(bitPattern: parent))
        if let found = frameIndex[key] { return found }
        let index = Int32(frames.count)
        frames.append(Configuration(state: state, parent: parent))
        frameIndex[key] = index
        return index
    }

    /// Clears the completion flags before an expansion round.
    mutating func resetFlags() {
        completed = false
        escaped = false
    }

    /// Adds to `output` every byte-consuming configuration reachable from `state` over `parent`
    /// by calls and returns, setting the completion flags when a return pops a sentinel.
    mutating func expand(_ state: Int32, over parent: Int32, into output: inout [Configuration], from start: Int) {
        let index = Int(state)
        if grammar.hasBytes[index] {
            let configuration = Configuration(state: state, parent: parent)
            if !output[start...].contains(configuration) { output.append(configuration) }
        }
        for call in grammar.calls[index] {
            let frame = push(call.returnState, above: parent)
            expand(grammar.ruleStart[Int(call.rule)], over: frame, into: &output, from: start)
        }
        if grammar.isFinal[index] {
            if parent >= 0 {
                let below = frames[Int(parent)]
                expand(below.state, over: below.parent, into: &output, from: start)
            } else {
                completed = true
                if parent == Self.escape { escaped = true }
            }
        }
    }

    /// The configurations at the start of the entry rule.
    mutating func initial() -> [Configuration] {
        var output: [Configuration] = []
        resetFlags()
        expand(grammar.ruleStart[0], over: Self.root, into: &output, from: 0)
        return output
    }

    /// Appends to `buffer` the configurations after `byte` from each of `buffer[range]`; the flags
    /// describe this step's returns.
    mutating func step(_ buffer: inout [Configuration], range: Range<Int>, byte: UInt8) {
        resetFlags()
        let start = buffer.count
        for position in range {
            let configuration = buffer[position]
            let target = grammar.target(of: Int(configuration.state), byte: Int(byte))
            if target >= 0 { expand(target, over: configuration.parent, into: &buffer, from: start) }
        }
    }

    /// Replaces `configurations` by their successors after `byte`.
    mutating func advance(_ configurations: inout [Configuration], byte: UInt8) {
        let count = configurations.count
        step(&configurations, range: 0..<count, byte: byte)
        configurations.removeFirst(count)
    }

    /// Runs `bytes` from the start of the grammar.
    mutating func run<S: Sequence>(_ bytes: S) -> Outcome where S.Element == UInt8 {
        var current = initial()
        var complete = completed
        for byte in bytes {
            if current.isEmpty { return .rejected }
            advance(&current, byte: byte)
            complete = completed
            if current.isEmpty && !complete { return .rejected }
        }
        return complete ? .complete : .prefix
    }

    /// Whether `bytes`, consumed from `configuration`, leaves a live parse (or completes the document).
    mutating func accepts(_ bytes: UnsafeBufferPointer<UInt8>, from configuration: Configuration) -> Bool {
        var current: [Configuration] = [configuration]
        var complete = false
        for byte in bytes {
            if current.isEmpty { return false }
            advance(&current, byte: byte)
            complete = completed
        }
        return !current.isEmpty || complete
    }
}
