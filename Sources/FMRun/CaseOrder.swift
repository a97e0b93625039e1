import FMCore
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

/// What the start of a case's prompt is made of, before its own prompt text: cases with equal groups
/// share that prefix token for token.
private struct PrefixGroup: Hashable {
    var engine: String
    var model: String?
    var instructions: String?
    var tools: [SuiteTool]
    var schema: GenerationSchema?
    var includeSchemaInPrompt: Bool
    var constrained: Bool

    init(_ item: ExpandedCase) {
        engine = item.engine
        model = item.model
        instructions = item.instructions
        tools = item.tools
        schema = item.generating
        includeSchemaInPrompt = item.settings.includeSchemaInPrompt
        constrained = item.settings.constrained
    }
}
