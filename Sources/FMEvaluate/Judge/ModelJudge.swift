import FMCore

/// A judge backed by any `LanguageModelEngine`: it sends instructions and a prompt with a response
/// schema (greedy, grammar-constrained) and returns the structured answer; it also decides
/// `naturalLanguage` argument matchers.
public final class ModelJudge: NaturalLanguageJudge {
    /// The engine that judges.
    public let engine: any LanguageModelEngine
    /// The most tokens a judge answer may use.
    public let maximumResponseTokens: Int

    /// Creates a judge over `engine`.
    public init(engine: any LanguageModelEngine, maximumResponseTokens: Int = 512) {
        self.engine = engine
        self.maximumResponseTokens = maximumResponseTokens
    }

    /// Asks the engine for a value conforming to `schema`; engine errors and unusable answers become failures.
    public func ask(instructions: String, prompt: String, schema: GenerationSchema) -> Result<GeneratedContent, EvaluatorFailure> {
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumResponseTokens, toolCallingMode: .disallowed)
        let transcript = Transcript(entries: [
            .instructions(Transcript.Instructions(id: "judge-instructions", segments: [.text(Transcript.TextSegment(id: "judge-instructions-text", content: instructions))])),
            .prompt(Transcript.Prompt(id: "judge-prompt", segments: [.text(Transcript.TextSegment(id: "judge-prompt-text", content: prompt))],
                                      options: options, responseFormat: Transcript.ResponseFormat(name: "JudgeVerdict", schema: schema))),
        ])
        let request = EngineRequest(transcript: transcript, options: options, schema: schema)
        let response: EngineResponse
        do {
            response = try engine.respond(to: request) { _ in }
        } catch {
            return .failure(EvaluatorFailure("judge engine \(engine.identity) failed: \(error)"))
        }
        if let content = response.content { return .success(content) }
        if response.finishReason == .length {
            return .failure(EvaluatorFailure("the judge's answer was cut at \(maximumResponseTokens) tokens: \(abbreviate(response.text))"))
        }
        do {
            return .success(try GeneratedContent(json: response.text))
        } catch {
            return .failure(EvaluatorFailure("the judge did not answer in JSON (\(error)): \(abbreviate(response.text))"))
        }
    }

    /// Decides a `naturalLanguage` matcher with a `{rationale, verdict: satisfied|notSatisfied}` answer.
    public func judge(toolName: String, argumentName: String, value: GeneratedContent, criteria: String) -> Result<(satisfied: Bool, rationale: String), EvaluatorFailure> {
        let instructions = """
            You check one argument of a tool call against a criterion. Read the criterion literally. \
            Explain your reasoning in one or two sentences, then answer satisfied or notSatisfied.
            """
        let prompt = """
            Tool: \(toolName)
            Argument: \(argumentName)
            Value: \(value.jsonString)
            Criterion: \(criteria)
            """
        let schema: GenerationSchema
        do {
            schema = try Self.argumentVerdictSchema()
        } catch {
            return .failure(EvaluatorFailure("the argument verdict schema is invalid: \(error)"))
        }
        let answer: GeneratedContent
        switch ask(instructions: instructions, prompt: prompt, schema: schema) {
        case .failure(let failure): return .failure(failure)
        case .success(let content): answer = content
        }
        let rationale = answer["rationale"]?.stringValue ?? ""
        switch answer["verdict"]?.stringValue {
        case "satisfied": return .success((true, rationale))
        case "notSatisfied": return .success((false, rationale))
        default:
            return .failure(EvaluatorFailure("the judge's verdict is not satisfied or notSatisfied: \(shown(answer))"))
        }
    }

    /// `{rationale: string, verdict: "satisfied" | "notSatisfied"}`.
    static func argumentVerdictSchema() throws -> GenerationSchema {
        let root = GenerationSchema.Node(.object(GenerationSchema.ObjectSchema(properties: [
            GenerationSchema.Property(name: "rationale", node: GenerationSchema.Node(.string(.init()))),
            GenerationSchema.Property(name: "verdict", node: GenerationSchema.Node(.string(.init(choices: ["satisfied", "notSatisfied"])))),
        ])), title: "ArgumentVerdict")
        return try GenerationSchema(root: root)
    }
}
