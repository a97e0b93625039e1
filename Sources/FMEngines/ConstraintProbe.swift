import FMCore

/// The constraint-honesty probe: one greedy request whose schema an unconstrained model essentially never
/// satisfies (an object whose one required string may only be seven `q`s, the schema kept out of the
/// prompt). A server that enforces the grammar channel answers `{"probe":"qqqqqqq"}`; one that ignores
/// `response_format` answers the prompt in its own words. See docs/engines.md, "Constraint-honesty probe".
public enum ConstraintProbe {
    /// The only value the probe schema allows.
    public static let token = "qqqqqqq"

    /// `{probe: "qqqqqqq"}` in the Foundation Models dialect (a single-value `enum`, which every JSON-Schema
    /// grammar supports, unlike unanchored or advanced patterns).
    public static let schema: GenerationSchema = {
        let value = GenerationSchema.Node(.string(.init(choices: [token])))
        let root = GenerationSchema.Node(.object(.init(properties: [.init(name: "probe", node: value)])),
                                         title: "ConstraintProbe")
        guard let schema = try? GenerationSchema(root: root) else { preconditionFailure("the probe schema is valid") }
        return schema
    }()

    /// The probe request: a question whose honest answer is a colour, the schema on the grammar channel only,
    /// greedy, at most 32 tokens.
    public static var request: EngineRequest {
        let prompt = Transcript.Entry.prompt(.init(id: "probe", segments: [
            .text(.init(id: "probe-text", content: "Name one colour of the rainbow."))]))
        return EngineRequest(transcript: Transcript(entries: [prompt]),
                             options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 32),
                             schema: schema, constrained: true, includeSchemaInPrompt: false)
    }

    /// What the probe found.
    public enum Verdict: Hashable, Sendable {
        /// The answer conforms to the probe schema: the server enforces it.
        case enforced
        /// The answer does not conform (or is not JSON): the server ignored the schema. `answer` is the
        /// server's text, at most 200 characters.
        case ignored(answer: String)

        /// `enforced` or `ignored`, as recorded in the results fingerprint.
        public var name: String {
            switch self {
            case .enforced: return "enforced"
            case .ignored: return "ignored"
            }
        }
    }

    /// The verdict on the engine's answer to `request`.
    public static func verdict(for response: EngineResponse) -> Verdict {
        if let content = response.content, SchemaValidator.isValid(content, against: schema) { return .enforced }
        let text = response.text.count > 200 ? String(response.text.prefix(200)) + "…" : response.text
        return .ignored(answer: text)
    }
}

/// An engine that hands the grammar channel's schema to someone else (a server) and can check, with
/// `ConstraintProbe`, that it is enforced there.
public protocol ConstraintProbing: LanguageModelEngine {
    /// Sends the probe once and returns the verdict; a failed request throws like any other call
    /// (an infrastructure error, not a verdict).
    func probeConstraints() throws -> ConstraintProbe.Verdict
    /// Where the probe went, for people: e.g. `openai server 127.0.0.1:8080 (model smollm2)`.
    var probeTarget: String { get }
}
