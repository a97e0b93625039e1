import FMCore

/// Builds what a model judge reads — instructions, the prompt with the response and rubric, and the
/// answer schema — for one `JudgeConfig`.
struct JudgePrompt {
    /// The judge configuration.
    let config: JudgeConfig

    /// The built-in guidance, followed by the configuration's own instructions.
    var instructions: String {
        var text = """
            You are a careful, impartial evaluator of responses written by an AI model. Score every dimension \
            independently, using only the levels described for it. Judge what the response actually says, not its \
            length or confidence. For each dimension, first write a short rationale that cites the response, then give the score.
            """
        if config.pairwise {
            text += """
                 You compare two responses to the same prompt: A is the baseline, B is the candidate. \
                Score how B compares with A; do not prefer either position.
                """
        }
        if let extra = config.instructions, !extra.isEmpty { text += "\n\n" + extra }
        return text
    }

    /// The text the judge scores: the prompt, the response (or both responses when pairwise),
    /// reference sections, and each dimension with its scale.
    func prompt(for subject: EvaluationSubject, response: String) -> String {
        var sections: [String] = []
        if let modelInstructions = subject.instructions, !modelInstructions.isEmpty {
            sections.append("## Instructions the model was given\n\(modelInstructions)")
        }
        sections.append("## Prompt\n\(subject.prompt)")
        if config.pairwise, let baseline = config.baseline {
            sections.append("## Response A (baseline)\n\(OutputTarget.text(of: baseline))")
            sections.append("## Response B (candidate)\n\(response)")
        } else {
            sections.append("## Response\n\(response)")
        }
        for (label, text) in config.reference.sorted(by: { $0.key < $1.key }) {
            sections.append("## Reference: \(label)\n\(text)")
        }
        var rubric = "## Dimensions to score"
        for dimension in config.effectiveDimensions {
            rubric += "\n\n### \(dimension.name)\n\(dimension.description)\n" + levelsText(scale(of: dimension))
        }
        sections.append(rubric)
        return sections.joined(separator: "\n\n")
    }

    /// The scale a dimension uses.
    func scale(of dimension: ScoreDimension) -> ScoringScale {
        dimension.scale ?? config.scale
    }

    /// The answer values a discrete scale allows, as strings.
    static func choices(of scale: ScoringScale) -> [String] {
        switch scale {
        case .passFail: return ["pass", "fail"]
        case .levels(let levels): return levels.map { formatScore($0.value) }
        }
    }

    /// The rubric lines for a scale.
    private func levelsText(_ scale: ScoringScale) -> String {
        switch scale {
        case .passFail(let pass, let fail):
            return "- pass: \(pass)\n- fail: \(fail)"
        case .levels(let levels):
            let lines = levels.map { "- \(formatScore($0.value)): \($0.description)" }
            let note = config.scoringMode == .continuous ? "\nAny number between these levels is allowed." : ""
            return lines.joined(separator: "\n") + note
        }
    }

    /// The answer schema: one object per dimension with a rationale and a score — an enum of the scale
    /// values when discrete (so the engine can only produce a level), a bounded number when continuous.
    func schema() throws -> GenerationSchema {
        let properties = config.effectiveDimensions.map { dimension -> GenerationSchema.Property in
            let scale = scale(of: dimension)
            let score: GenerationSchema.Node
            if config.scoringMode == .continuous, case .levels(let levels) = scale {
                let values = levels.map(\.value)
                score = GenerationSchema.Node(.number(.init(minimum: values.min(), maximum: values.max())))
            } else {
                score = GenerationSchema.Node(.string(.init(choices: Self.choices(of: scale))))
            }
            let fields = GenerationSchema.ObjectSchema(properties: [
                GenerationSchema.Property(name: "rationale", node: GenerationSchema.Node(.string(.init()))),
                GenerationSchema.Property(name: "score", node: score),
            ])
            return GenerationSchema.Property(name: dimension.name, node: GenerationSchema.Node(.object(fields), description: dimension.description))
        }
        return try GenerationSchema(root: GenerationSchema.Node(.object(.init(properties: properties)), title: "JudgeScores"))
    }
}
