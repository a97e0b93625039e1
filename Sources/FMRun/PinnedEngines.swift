import FMCore
import FMEngines
import FMSuite

/// An engine a case's own content decides, whatever the engine flags say: a case scored from a recorded
/// transcript is played by the `recorded` provider, a scripted stand-in for Apple's model keeps its
/// suite's engine. Each is registered once in `PinnedEngines.all`; engine resolution, the run's engine
/// set, its checks and the flag notes read them from there.
struct PinnedEngine: Sendable {
    /// The engine `item` is pinned to, with where it came from; nil when this entry does not claim it.
    let pin: @Sendable (ExpandedCase) -> ResolvedEngine?
    /// Builds the provider of the cases this entry pins from the run's cases; nil when the engine registry
    /// builds it (the pinned configuration names a registered engine, checked like any other).
    let provider: (@Sendable ([ExpandedCase]) -> EngineProvider)?
}

/// The registered pinned engines.
enum PinnedEngines {
    /// Every entry, the first claim winning.
    static let all: [PinnedEngine] = [RecordedTranscriptProvider.pinned, ScriptedStandIns.pinned]

    /// The entry that pins `item` and what it pins it to; nil when the flags decide its engine.
    static func pin(_ item: ExpandedCase) -> (entry: PinnedEngine, engine: ResolvedEngine)? {
        for entry in all {
            if let engine = entry.pin(item) { return (entry, engine) }
        }
        return nil
    }

    /// True when `item`'s engine comes from outside the engine registry (a recorded transcript's player).
    static func isUnregistered(_ item: ExpandedCase) -> Bool { pin(item)?.entry.provider != nil }
}
