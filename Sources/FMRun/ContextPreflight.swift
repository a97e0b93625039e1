import FMCore
import FMEngines
import FMEvaluate
import FMSession
import FMSuite

/// What one case needs of its context window before anything runs (`fmeval validate --device`): the
/// instructions, tool definitions, schema and every turn's prompt counted by the engine the case runs
/// on (its tokenizer, else `TokenEstimate`), its images, and room for each turn's response.
public struct ContextNeed: Sendable {
    /// The case (`suite/case@variant`).
    public var caseID: String
    /// Where the case is written.
    public var location: SourceLocation
    /// Its device profile, if it names one.
    public var device: String?
    /// The window it runs in.
    public var contextSize: Int
    /// Its input, part by part.
    public var parts: PromptTokenCounts
    /// The tokens its images take (`imageTokens` each).
    public var images: Int
    /// The room its responses take: `maximumResponseTokens` per turn (0 when the case sets none).
    public var responses: Int
    /// Turns (prompts) of the session.
    public var turns: Int
    /// Whether the case sets `maximumResponseTokens`, without which a response's room is not counted.
    public var responsesBounded: Bool
    /// Whether the case expects to overflow (`error: contextSizeExceeded`, or a known issue matching it).
    public var expectsOverflow: Bool

    /// Everything counted.
    public var total: Int { parts.total + images + responses }
    /// True when it fits the window.
    public var fits: Bool { total <= contextSize }

    /// One line: the case, its total against the window, and the parts.
    public var summary: String {
        let counter = parts.estimated ? "estimated, 4 bytes a token" : "the engine's tokenizer"
        let responsePart = responsesBounded
            ? "responses \(responses) (maximumResponseTokens × \(turns) turn\(turns == 1 ? "" : "s"))"
            : "responses not counted (no maximumResponseTokens)"
        let onDevice = device.map { " on \($0)" } ?? ""
        return "\(caseID) needs \(total) of \(contextSize) tokens\(onDevice): instructions \(parts.instructions), "
            + "tools \(parts.tools), schema \(parts.schema), prompts \(parts.prompt), images \(images), "
            + "\(responsePart) (\(counter))"
    }
}

/// Counts each live case's window need with the engines the run would use; recorded transcripts, which
/// run no session, are left out.
public enum ContextPreflight {
    /// The needs of `cases`, in order; engines are created as `request` would create them (a model is
    /// fetched on first use, as `fmeval run` does). Throws the fault an engine's creation throws.
    public static func needs(of cases: [ExpandedCase], request: RunRequest) throws -> [ContextNeed] {
        let live = cases.filter { $0.recorded == nil }
        guard !live.isEmpty else { return [] }
        let engines = try EngineSet(request: request, cases: live)
        return try live.map { item in
            let executor = AttemptExecutor(item: item, provider: engines.provider(for: item),
                                           environment: EvaluationEnvironment())
            let plan = executor.plan(attempt: 0)
            let engine = try executor.provider.engine(for: AttemptContext(caseID: item.id + "#preflight",
                                                                          caseData: item.engineData, attempt: 0))
            let parts = try PromptTokenCounts(plan: plan, engine: engine)
            let responseLimit = item.options.maximumResponseTokens
            let overflow = LanguageModelError.contextSizeExceeded(.init(debugDescription: "")).caseName
            let expected = item.expectations.contains { $0.covers(errorNamed: overflow, class: .modelBehavior) }
                || item.knownIssue.map { $0.uncoveredFailure(errorName: overflow, failingMetrics: []) == nil } == true
            return ContextNeed(
                caseID: item.id, location: item.location, device: item.settings.device,
                contextSize: item.settings.contextSize, parts: parts,
                images: item.attachments.count * plan.configuration.imageTokens,
                responses: (responseLimit ?? 0) * plan.turns.count, turns: plan.turns.count,
                responsesBounded: responseLimit != nil, expectsOverflow: expected)
        }
    }
}
