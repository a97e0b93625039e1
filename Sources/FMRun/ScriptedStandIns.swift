import FMEngines
import FMEvaluate
import FMSuite

/// Cases that play a behaviour only Apple's model shows (a suite marked `reproducedWith: scripted`,
/// whose case runs on the `scripted` engine): the engine flags leave them on their script, since
/// another engine would show its own model's behaviour, not the reported one. Other cases written for an
/// engine that owns case data (`EngineDescriptor.ownsCaseData`: the scripted engine's `script:`) follow the
/// flags, and the run says so once per suite, since their data then goes unused.
public enum ScriptedStandIns {
    /// True when `item` plays Apple's model through its script.
    public static func contains(_ item: ExpandedCase) -> Bool {
        item.origin?.reproducedWith == .scripted && item.engineSpec.name == EngineRegistry.scriptEngine
    }

    /// The pinned engine of a stand-in: its suite's engine as written, whatever the flags say.
    static let pinned = PinnedEngine(pin: { item in
        contains(item) ? EngineResolution.written(item, request: nil) : nil
    }, provider: nil)

    /// The notes on what the engine flags do to cases written for an engine that owns case data: one for
    /// the stand-ins they leave on their script, one per suite whose cases they move to another engine.
    static func flagNotes(_ cases: [ExpandedCase], request: RunRequest) -> [RunNote] {
        let flags = request.engineFlagNames
        guard !flags.isEmpty else { return [] }
        let applies = flags.count == 1 ? "does" : "do"
        var notes: [RunNote] = []
        let standIns = cases.filter(contains)
        if !standIns.isEmpty {
            let suites = Array(Set(standIns.map(\.suite))).sorted()
            notes.append(RunNote(.flagsSkipStandIns, suites: suites, text: "note: \(flags.joined(separator: ", ")) \(applies) "
                + "not apply to the \(standIns.count) case\(standIns.count == 1 ? "" : "s") that play Apple's model through a "
                + "script (\(suites.joined(separator: ", "))): another engine would show its own model's behaviour"))
        }
        var moved: [String: (first: ExpandedCase, engine: String, count: Int)] = [:]
        var order: [String] = []
        for item in cases where PinnedEngines.pin(item) == nil {
            guard EngineRegistry.descriptor(named: item.engineSpec.name)?.ownsCaseData == true else { continue }
            let engine = EngineResolution.resolve(item, request: request).configuration.name
            guard engine != item.engineSpec.name else { continue }
            if moved[item.suite] == nil { order.append(item.suite) }
            moved[item.suite, default: (item, engine, 0)].count += 1
        }
        for suite in order {
            guard let (first, engine, count) = moved[suite] else { continue }
            let written = (first.engineSpec.location ?? first.location).description
            notes.append(RunNote(.flagsReplaceScriptedEngine, suites: [suite], text: "note: \(flags.joined(separator: ", ")) "
                + "run\(flags.count == 1 ? "s" : "") the \(count) case\(count == 1 ? "" : "s") of suite '\(suite)' on engine "
                + "'\(engine)', not on '\(first.engineSpec.name)' (\(written)): their `script:` is not played, and known issues "
                + "that rely on it may reproduce for another reason"))
        }
        return notes
    }
}
