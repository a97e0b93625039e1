/// `toolCalls`: the tool calls follow a trajectory.
extension TrajectoryExpectation: ExpectationKind {
    /// `toolCalls`.
    public static let keyword = "toolCalls"

    /// Tool calls in `ordered`, `unordered` and `disallowed` may be written in the suite shorthand.
    public static func expand<Reader: ExpectationReader>(_ node: Reader.Node, keyword: String, reader: Reader) -> Reader.Node? {
        reader.expandToolCalls(node)
    }

    /// The `toolCalls` property and the `trajectory`, `toolCall` and `argumentMatcher` definitions.
    public static var jsonSchema: ExpectationSchemaFragment {
        ExpectationSchemaFragment(properties: #"""
        "toolCalls": { "$ref": "#/$defs/trajectory" }
        """#, definitions: #"""
        "trajectory": {
          "type": "object",
          "description": "The tool calls follow a trajectory (Apple's TrajectoryExpectation).",
          "additionalProperties": false,
          "properties": {
            "ordered": {
              "type": "array", "description": "Positions that must occur in order: a call, or {anyOrder: [calls]}.",
              "items": {
                "anyOf": [
                  { "$ref": "#/$defs/toolCall" },
                  { "type": "object", "additionalProperties": false, "required": ["anyOrder"], "properties": { "anyOrder": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/toolCall" } } } }
                ]
              }
            },
            "unordered": { "type": "array", "items": { "$ref": "#/$defs/toolCall" }, "description": "Calls that must occur anywhere, each matched to a distinct call." },
            "disallowed": { "type": "array", "items": { "$ref": "#/$defs/toolCall" }, "description": "A tool, or with matchers only matching calls, that must not be called." },
            "allowsAdditionalToolCalls": { "type": "boolean", "description": "Default true; false fails on extra calls." },
            "metric": { "enum": ["allPass", "percentagePass"], "description": "allPass (default) or percentagePass with minimumPercentage." },
            "minimumPercentage": { "type": "number", "minimum": 0, "maximum": 1 },
            "judgeEngine": { "type": "string", "description": "The engine judging naturalLanguage matchers." },
            "maxViolations": { "type": "integer", "minimum": 0, "description": "Most violations of the tools' own argument schemas over all calls; unset leaves them ungated." },
            "maxViolationsPerKeyword": { "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 }, "description": "Most argument-schema violations per keyword, e.g. {additionalProperties: 0}." }
          }
        },
        "toolCall": {
          "description": "A tool's name, or {name, arguments?}.",
          "anyOf": [
            { "type": "string" },
            {
              "type": "object", "additionalProperties": false, "required": ["name"],
              "properties": {
                "name": { "type": "string" },
                "arguments": { "type": "object", "description": "Argument name (or JSON pointer) to a matcher; a bare value means exact.", "additionalProperties": { "$ref": "#/$defs/argumentMatcher" } },
                "allowsAdditionalArguments": { "type": "boolean", "description": "Default true; false fails a call with an argument no matcher names." }
              }
            }
          ]
        },
        "argumentMatcher": {
          "anyOf": [
            {
              "type": "object", "additionalProperties": false, "minProperties": 1,
              "description": "Exactly one matcher keyword, plus optional modifiers.",
              "properties": {
                "exact": { "description": "Equals this value." },
                "keyOnly": { "const": true, "description": "Present, any value." },
                "oneOf": { "type": "array", "minItems": 1 },
                "range": { "type": "object", "additionalProperties": false, "properties": { "minimum": { "type": "number" }, "maximum": { "type": "number" } } },
                "pattern": { "type": "string", "description": "A regular expression." },
                "contains": { "type": "string" },
                "hasPrefix": { "type": "string" },
                "hasSuffix": { "type": "string" },
                "naturalLanguage": { "type": "string", "description": "Criteria judged by a model." },
                "length": { "description": "An array with this many elements, or {minimum?, maximum?}.", "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "object", "additionalProperties": false, "properties": { "minimum": { "type": "integer", "minimum": 0 }, "maximum": { "type": "integer", "minimum": 0 } } }] },
                "optional": { "type": "boolean", "description": "The argument may be absent; when present the matcher must hold." },
                "ignoreCase": { "type": "boolean", "description": "Strings compare without regard to case." },
                "normalize": { "type": "array", "items": { "enum": ["whitespace", "punctuation"] }, "description": "Remove whitespace and/or punctuation from both sides before strings compare." },
                "allowsAdditionalKeys": { "type": "boolean", "description": "Object answers of exact/oneOf: the value may have other keys (default false: no other keys)." }
              }
            },
            true
          ]
        }
        """#)
    }

    /// The judge engine, when a `naturalLanguage` matcher needs one.
    public var judgeEngines: [JudgeEngineChoice] {
        let usesJudge = (ordered.flatMap(\.calls) + unordered + disallowed)
            .flatMap(\.arguments)
            .contains { if case .naturalLanguage = $0.base { return true } else { return false } }
        return usesJudge ? [JudgeEngineChoice(name: judgeEngine)] : []
    }

    /// A `ToolCallsEvaluator`; only trajectories with `naturalLanguage` matchers set up a judge.
    public func evaluator(in environment: EvaluationEnvironment) -> any Evaluator {
        let judge = judgeEngines.isEmpty ? nil : environment.judgeEngine(JudgeEngineChoice(name: judgeEngine)).map { ModelJudge(engine: $0) }
        return ToolCallsEvaluator(self, judge: judge)
    }
}

extension Expectation {
    /// The tool calls follow a trajectory.
    public static func toolCalls(_ check: TrajectoryExpectation) -> Expectation { Expectation(check) }
}
