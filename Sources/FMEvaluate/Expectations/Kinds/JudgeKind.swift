/// `judge`: a model judges the response.
extension JudgeConfig: ExpectationKind {
    /// `judge`.
    public static let keyword = "judge"

    /// The `judge` property and the `judge` and `scale` definitions.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "judge": { "$ref": "#/$defs/judge" }
        """#, definitions: #"""
        "judge": {
          "type": "object",
          "description": "A model judges the response.",
          "additionalProperties": false,
          "properties": {
            "name": { "type": "string", "description": "The metric's name (default judge)." },
            "engine": { "type": "string", "description": "The judge's engine." },
            "engineData": {},
            "instructions": { "type": "string" },
            "criteria": { "type": "string", "description": "What a good response does." },
            "scale": { "$ref": "#/$defs/scale" },
            "dimensions": {
              "type": "array", "description": "Independently scored aspects.",
              "items": {
                "type": "object", "additionalProperties": false, "required": ["name", "description"],
                "properties": { "name": { "type": "string" }, "description": { "type": "string" }, "scale": { "$ref": "#/$defs/scale" } }
              }
            },
            "pairwise": { "type": "boolean", "description": "Compare against baseline." },
            "baseline": { "description": "The response to compare with." },
            "scoringMode": { "enum": ["discrete", "continuous"] },
            "minimumScore": { "type": "number" },
            "reference": { "type": "object", "additionalProperties": { "type": "string" }, "description": "Reference texts by name." }
          }
        },
        "scale": {
          "description": "{passFail: {pass, fail}} or {levels: [{value, description}]}.",
          "anyOf": [
            {
              "type": "object", "additionalProperties": false, "required": ["passFail"],
              "properties": { "passFail": { "type": "object", "additionalProperties": false, "required": ["pass", "fail"], "properties": { "pass": { "type": "string" }, "fail": { "type": "string" } } } }
            },
            {
              "type": "object", "additionalProperties": false, "required": ["levels"],
              "properties": {
                "levels": {
                  "type": "array", "minItems": 1,
                  "items": { "type": "object", "additionalProperties": false, "required": ["value", "description"], "properties": { "value": { "type": "number" }, "description": { "type": "string" } } }
                }
              }
            }
          ]
        }
        """#)
    }

    /// The judge's engine, with its engine data.
    public var judgeEngines: [JudgeEngineChoice] { [JudgeEngineChoice(name: engine, data: engineData)] }

    /// A `JudgeEvaluator` with the environment's judge engine.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator {
        JudgeEvaluator(self, judge: environment.judgeEngine(JudgeEngineChoice(name: engine, data: engineData)).map { ModelJudge(engine: $0) })
    }
}

extension Expectation {
    /// A model judges the response.
    public static func judge(_ config: JudgeConfig) -> Expectation { Expectation(config) }
}
