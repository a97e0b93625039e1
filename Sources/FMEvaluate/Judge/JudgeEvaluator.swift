import FMCore

/// `judge`: a model scores the response on each dimension in one call (or pairwise against `baseline`);
/// every dimension becomes its own metric, `<name>.<dimension>` (just `<name>` for a single unnamed one).
public struct JudgeEvaluator: Evaluator {
    /// The configuration.
    public let config: JudgeConfig
    /// The judge; nil when the configured engine is unavailable (every dimension is then an evaluator error, saying so).
    public let judge: ModelJudge?
    /// Metric name prefix.
    public var name: String { config.name }

    /// Creates the evaluator.
    public init(_ config: JudgeConfig, judge: ModelJudge?) {
        self.config = config
        self.judge = judge
    }

    /// The metric name of a dimension.
    func metricName(_ dimension: ScoreDimension) -> String {
        config.dimensions.isEmpty ? config.name : "\(config.name).\(dimension.name)"
    }

    /// One metric per dimension; a judge that cannot answer (no engine, the engine failed, an unusable
    /// answer) gives evaluator errors, not failures of the judged response.
    public func evaluate(_ subject: EvaluationSubject) -> [Metric] {
        let dimensions = config.effectiveDimensions
        let failAll = { (reason: String) in dimensions.map { Metric.failing(metricName($0), rationale: reason) } }
        let brokenAll = { (reason: String) in dimensions.map { Metric.evaluatorError(metricName($0), rationale: "judge error: " + reason) } }
        guard let judge else {
            return brokenAll("no judge engine is available\(config.engine.map { " (engine '\($0)')" } ?? ""); configure one for the run")
        }
        guard let response = subject.outputText else {
            return failAll("there is no response to judge" + (subject.error.map { " (the attempt ended in \($0))" } ?? ""))
        }
        if config.pairwise && config.baseline == nil {
            return brokenAll("pairwise judging needs a baseline: give the judge a baseline (the response to compare with)")
        }
        let builder = JudgePrompt(config: config)
        let schema: GenerationSchema
        do {
            schema = try builder.schema()
        } catch {
            return brokenAll("the judge's answer schema is invalid: \(error); check dimension names and scale values")
        }
        switch judge.ask(instructions: builder.instructions, prompt: builder.prompt(for: subject, response: response), schema: schema) {
        case .failure(let failure):
            return brokenAll(failure.message)
        case .success(let answer):
            return dimensions.map { metric(for: $0, in: answer, scale: builder.scale(of: $0)) }
        }
    }

    /// The metric for one dimension of the judge's answer, or a failing metric naming what is wrong with it.
    private func metric(for dimension: ScoreDimension, in answer: GeneratedContent, scale: ScoringScale) -> Metric {
        let name = metricName(dimension)
        guard let entry = answer[dimension.name] else {
            return .failing(name, rationale: "the judge's answer lacks dimension '\(dimension.name)': \(shown(answer))")
        }
        let rationale = entry["rationale"]?.stringValue ?? ""
        guard let raw = entry["score"] else {
            return .failing(name, rationale: "the judge gave no score for '\(dimension.name)': \(shown(entry))")
        }
        switch scale {
        case .passFail:
            switch raw.stringValue {
            case "pass": return .passing(name, rationale: rationale)
            case "fail": return .failing(name, rationale: rationale.isEmpty ? "the judge scored fail" : rationale)
            default: return .failing(name, rationale: "the judge's score \(shown(raw)) for '\(dimension.name)' is not pass or fail")
            }
        case .levels(let levels):
            guard let value = raw.numberValue ?? raw.stringValue.flatMap(Double.init) else {
                return .failing(name, rationale: "the judge's score \(shown(raw)) for '\(dimension.name)' is not a number")
            }
            let values = levels.map(\.value)
            let valid = config.scoringMode == .continuous
                ? (values.min().map { value >= $0 } ?? false) && (values.max().map { value <= $0 } ?? false)
                : values.contains(value)
            guard valid else {
                let allowed = values.map(formatScore).joined(separator: ", ")
                return .failing(name, rationale: "the judge's score \(formatScore(value)) for '\(dimension.name)' is not on the scale (\(allowed))")
            }
            let level = levels.first { $0.value == value }.map { " (\($0.description))" } ?? ""
            let threshold = dimension.minimumScore ?? config.minimumScore
            return .scoring(name, value, threshold: threshold, rationale: "\(formatScore(value))\(level): \(rationale)")
        }
    }
}
