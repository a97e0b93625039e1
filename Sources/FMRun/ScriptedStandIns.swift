import FMEvaluate
import FMSuite

/// Cases that play a behaviour only Apple's model shows (a suite marked `reproducedWith: scripted`,
/// whose case runs on the `scripted` engine): the engine flags leave them on their script, since
/// another engine would show its own model's behaviour, not the reported one.
public enum ScriptedStandIns {
    /// True when `item` plays Apple's model through its script.
    public static func contains(_ item: ExpandedCase) -> Bool {
        item.origin?.reproducedWith == .scripted && item.engineSpec.name == "scripted"
    }

    /// The note that the engine flags leave such cases on their script; nil when no flag meets one.
    static func flagNote(_ cases: [ExpandedCase], request: RunRequest) -> String? {
        let flags = request.engineFlagNames
        let standIns = cases.filter(contains)
        guard !flags.isEmpty, !standIns.isEmpty else { return nil }
        let suites = Array(Set(standIns.map(\.suite))).sorted()
        return "note: \(flags.joined(separator: ", ")) \(flags.count == 1 ? "does" : "do") not apply to the \(standIns.count) case\(standIns.count == 1 ? "" : "s") "
            + "that play Apple's model through a script (\(suites.joined(separator: ", "))): another engine would show its own model's behaviour"
    }
}
