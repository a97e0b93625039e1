import FMCore
import FMSession
import FMSuite

/// The order a run starts its cases in (`--case-order`). Results, terminal lines and reports keep
/// suite order whichever it is.
public enum CaseOrder: String, Sendable, CaseIterable {
    /// Suite order: cases start as the suites list them.
    case suite
    /// Prefix order (the default): cases whose prompts begin alike — the same engine, instructions, tools,
    /// response schema and prompt channel — start one after another, so the engine's prompt-prefix cache
    /// serves the part they share; groups start in the order of their first case, each in suite order.
    case prefix

    /// The positions of `cases` in the order they start.
    public func schedule(_ cases: [ExpandedCase]) -> [Int] {
        guard self == .prefix else { return Array(cases.indices) }
        var groups: [PrefixGroup: Int] = [:]
        var members: [[Int]] = []
        for (position, item) in cases.enumerated() {
            let key = PrefixGroup(item)
            if let group = groups[key] {
                members[group].append(position)
            } else {
                groups[key] = members.count
                members.append([position])
            }
        }
        return members.flatMap { $0 }
    }
}

/// What the start of a case's prompt is made of, before its own prompt text: the engine that reads it and
/// the session configuration of its plan (`AttemptExecutor.configuration(for:)`) without the generation
/// options, which shape the answer but not the prompt. Derived from the plan, so a setting added to the
/// configuration separates groups without being listed here.
private struct PrefixGroup: Hashable {
    var engine: String
    var model: String?
    var configuration: SessionConfiguration

    init(_ item: ExpandedCase) {
        engine = item.engine
        model = item.model
        configuration = AttemptExecutor.configuration(for: item)
        configuration.options = GenerationOptions()
    }
}
