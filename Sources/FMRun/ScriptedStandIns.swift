import FMEngines
import FMEvaluate
import FMSuite

/// Cases written for an engine that keeps its cases (`EngineDescriptor.keepsItsCases`: the `scripted`
/// engine, whose cases carry a `script:`): the engine flags leave them on it, since another engine would
/// ignore the script, and the run says so once per suite. Among them, the stand-ins for Apple's model (a
/// suite marked `reproducedWith: scripted`) would show another model's behaviour, not the reported one.
public enum ScriptedStandIns {
    /// True when `item` stays on the engine its suite names whatever the engine flags say.
    public static func contains(_ item: ExpandedCase) -> Bool {
        EngineRegistry.descriptor(named: item.engineSpec.name)?.keepsItsCases ?? false
    }

    /// One note per suite whose cases the engine flags leave on their engine; none when no flag meets one.
    static func flagNotes(_ cases: [ExpandedCase], request: RunRequest) -> [String] {
        let flags = request.engineFlagNames
        guard !flags.isEmpty else { return [] }
        var bySuite: [String: [ExpandedCase]] = [:]
        var order: [String] = []
        for item in cases where contains(item) {
            if bySuite[item.suite] == nil { order.append(item.suite) }
            bySuite[item.suite, default: []].append(item)
        }
        let applies = flags.count == 1 ? "does" : "do"
        return order.map { suite in
            let kept = bySuite[suite] ?? []
            let first = kept[0]
            let written = (first.engineSpec.location ?? first.location).description
            let why = first.origin?.reproducedWith == .scripted
                ? "they play Apple's model through a script, and another engine would show its own model's behaviour"
                : "another engine would ignore their script"
            return "note: \(flags.joined(separator: ", ")) \(applies) not apply to the \(kept.count) case"
                + "\(kept.count == 1 ? "" : "s") of suite '\(suite)', which keep engine '\(first.engineSpec.name)' "
                + "(\(written)): \(why)"
        }
    }
}
