import Foundation

/// Where decode time goes, summed over decode steps while a profile is attached to the model
/// (`LlamaModel.decodeProfile`): the forward pass's phases as pool thread 0 sees them (each phase ends at the
/// barrier where the threads meet, so these are wall times), and the generator's mask and sampling.
public final class DecodeProfile: @unchecked Sendable {
    /// A part of a decode step.
    public enum Phase: Int, CaseIterable, Sendable {
        /// The matrix–vector products of the layers: Wq, Wk, Wv (with RoPE and the cache write), Wo, Wg, Wu, Wd.
        case matrixVector
        /// Attention over the cached keys and values.
        case attention
        /// The final norm and the output head (logits over the vocabulary, the mask applied).
        case outputHead
        /// The embedding lookup and the RMSNorms between blocks.
        case norms
        /// Asking the constraint for the next step's allowed tokens.
        case mask
        /// Choosing the token from the logits.
        case sampling

        /// The key in `fmeval bench --json`.
        public var key: String {
            switch self {
            case .matrixVector: "matrixVector"
            case .attention: "attention"
            case .outputHead: "outputHead"
            case .norms: "norms"
            case .mask: "mask"
            case .sampling: "sampling"
            }
        }
    }

    private var nanoseconds = [UInt64](repeating: 0, count: Phase.allCases.count)
    /// Decode steps profiled.
    public private(set) var steps = 0

    /// An empty profile.
    public init() {}

    /// Milliseconds per decode step spent in `phase`.
    public func millisecondsPerStep(_ phase: Phase) -> Double {
        steps == 0 ? 0 : Double(nanoseconds[phase.rawValue]) / 1e6 / Double(steps)
    }

    func add(_ phase: Phase, _ elapsed: UInt64) { nanoseconds[phase.rawValue] &+= elapsed }

    func countStep() { steps += 1 }

    /// Monotonic nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// Times consecutive phases into a profile; does nothing without one.
struct PhaseClock {
    private let profile: DecodeProfile?
    private var last: UInt64

    init(_ profile: DecodeProfile?) {
        self.profile = profile
        last = profile == nil ? 0 : DecodeProfile.now()
    }

    /// Adds the time since the previous lap to `phase`.
    mutating func lap(_ phase: DecodeProfile.Phase) {
        guard let profile else { return }
        let now = DecodeProfile.now()
        profile.add(phase, now &- last)
        last = now
    }
}
