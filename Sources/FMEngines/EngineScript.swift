import FMCore

/// The responses a `scripted` engine plays back, written in a suite's `script:` key.
///
/// Three shapes (JSON or YAML):
/// - a list of steps — each engine call of an attempt takes the next step, across turns;
/// - `{turns: [[step…], …]}` — each turn of a multi-turn case takes steps from its own list;
/// - `{attempts: [script, …]}` — attempt k plays `attempts[k % count]` (flaky or divergent behaviour).
public indirect enum EngineScript: Codable, Hashable, Sendable, EngineCaseValue {
    /// One list of steps for the whole attempt.
    case steps([ScriptStep])
    /// One list of steps per turn.
    case turns([[ScriptStep]])
    /// One script per attempt, cycling.
    case attempts([EngineScript])

    /// The script that attempt number `attempt` (0-based) plays.
    public func forAttempt(_ attempt: Int) -> EngineScript {
        guard case .attempts(let scripts) = self, !scripts.isEmpty else { return self }
        return scripts[attempt % scripts.count].forAttempt(attempt / scripts.count)
    }

    private enum CodingKeys: String, CodingKey { case steps, turns, attempts }

    /// Decodes a list of steps, or an object with exactly one of `steps`, `turns`, `attempts`; a bad step of
    /// a list is reported as itself.
    public init(from decoder: Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            self = .steps(try decoder.singleValueContainer().decode([ScriptStep].self))
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let present = container.allKeys
        guard present.count == 1, let key = present.first else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a script is a list of steps, or an object with exactly one of 'steps', 'turns', "
                    + "'attempts'"))
        }
        switch key {
        case .steps: self = .steps(try container.decode([ScriptStep].self, forKey: .steps))
        case .turns: self = .turns(try container.decode([[ScriptStep]].self, forKey: .turns))
        case .attempts: self = .attempts(try container.decode([EngineScript].self, forKey: .attempts))
        }
    }

    /// Encodes the object form (`steps`, `turns` or `attempts`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .steps(let steps): try container.encode(steps, forKey: .steps)
        case .turns(let turns): try container.encode(turns, forKey: .turns)
        case .attempts(let scripts): try container.encode(scripts, forKey: .attempts)
        }
    }
}

extension EngineScript {
    /// The key a case writes its script under, read by the scripted engine alone.
    public static let caseDataKey = "script"

    /// The scripted engine's per-case data: `script:`, decoded, with its steps and turns checked.
    static let caseData = EngineCaseDataKind(
        key: caseDataKey, summary: "the responses to play back",
        decode: { try EngineScript(from: $0) },
        check: { value, facts in (value as? EngineScript)?.problems(facts) ?? [] },
        schemaDefinitions: schemaDefinitions)

    /// The JSON Schema of a script and of its steps, as `$defs` members.
    static let schemaDefinitions = #"""
"script": {
  "description": "Responses for the scripted engine: steps, {steps}, {turns: [[step...]...]}, {attempts: [script...]}.",
  "anyOf": [
    { "type": "array", "items": { "$ref": "#/$defs/scriptStep" } },
    {
      "type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
      "properties": {
        "steps": { "type": "array", "items": { "$ref": "#/$defs/scriptStep" } },
        "turns": { "type": "array", "items": { "type": "array", "items": { "$ref": "#/$defs/scriptStep" } } },
        "attempts": { "type": "array", "items": { "$ref": "#/$defs/script" } }
      }
    }
  ]
},
"scriptStep": {
  "type": "object",
  "description": "One engine call's response: exactly one of text, structure, toolCalls, error.",
  "additionalProperties": false,
  "oneOf": [
    { "required": ["text"] }, { "required": ["structure"] }, { "required": ["toolCalls"] }, { "required": ["error"] }
  ],
  "properties": {
    "text": { "type": "string" },
    "structure": { "description": "A structured response." },
    "toolCalls": {
      "type": "array", "minItems": 1,
      "items": {
        "type": "object", "additionalProperties": false, "required": ["name"],
        "properties": { "name": { "type": "string" }, "arguments": { "type": "object" } }
      }
    },
    "error": { "$ref": "#/$defs/errorName" },
    "message": { "type": "string", "description": "The error's message." },
    "inputTokens": { "type": "integer", "minimum": 0 },
    "outputTokens": { "type": "integer", "minimum": 0 },
    "latencyMs": { "type": "number", "minimum": 0 }
  }
}
"""#

    /// Every step of every turn and attempt.
    public var allSteps: [ScriptStep] {
        switch self {
        case .steps(let steps): return steps
        case .turns(let turns): return turns.flatMap { $0 }
        case .attempts(let scripts): return scripts.flatMap(\.allSteps)
        }
    }

    /// What keeps the script from playing in its case: bad steps, a turn count unlike the case's, calls
    /// of tools the suite does not define.
    func problems(_ facts: EngineCaseFacts) -> [String] {
        var found = allSteps.flatMap(\.problems).map { "script: \($0)" }
        if case .turns(let lists) = self, lists.count != facts.turnCount {
            found.append("case '\(facts.caseID)' script has \(lists.count) turn list\(lists.count == 1 ? "" : "s") but "
                + "the case has \(facts.turnCount) turn\(facts.turnCount == 1 ? "" : "s"); "
                + "give one list of steps per turn")
        }
        var named: Set<String> = []
        for name in allSteps.flatMap({ $0.toolCalls ?? [] }).map(\.name)
        where !facts.toolNames.contains(name) && named.insert(name).inserted {
            found.append("case '\(facts.caseID)' script calls tool '\(name)', which the suite does not define")
        }
        return found
    }
}

extension EngineCaseData {
    /// Case data holding `script` for the scripted engine.
    public static func script(_ script: EngineScript) -> EngineCaseData {
        var data = EngineCaseData()
        data.set(script, forKey: EngineScript.caseDataKey)
        return data
    }
}

/// One scripted engine call: a text response, a structured response, tool calls, or an error.
///
/// Exactly one of `text`, `structure`, `toolCalls`, `error` is set. Token counts default to
/// `TokenEstimate`; `latencyMs` makes the engine wait that long (for latency budgets).
public struct ScriptStep: Codable, Hashable, Sendable {
    /// A text response (with a schema requested, raw text that must parse as the structure).
    public var text: String?
    /// A structured response (it need not conform to the requested schema: violations are counted).
    public var structure: GeneratedContent?
    /// Tool calls the model makes in this step; the session runs them and calls the engine again.
    public var toolCalls: [ScriptedToolCall]?
    /// A `LanguageModelError` case name (for example `rateLimited`) the engine throws.
    public var error: String?
    /// The message of the thrown error (default: a generic scripted message).
    public var message: String?
    /// Prompt tokens to report instead of the estimate.
    public var inputTokens: Int?
    /// Output tokens to report instead of the estimate.
    public var outputTokens: Int?
    /// Milliseconds the engine sleeps before answering.
    public var latencyMs: Double?

    /// Creates a step; set exactly one of `text`, `structure`, `toolCalls`, `error`.
    public init(text: String? = nil, structure: GeneratedContent? = nil, toolCalls: [ScriptedToolCall]? = nil,
                error: String? = nil, message: String? = nil, inputTokens: Int? = nil, outputTokens: Int? = nil,
                latencyMs: Double? = nil) {
        self.text = text
        self.structure = structure
        self.toolCalls = toolCalls
        self.error = error
        self.message = message
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.latencyMs = latencyMs
    }

    /// A text response step.
    public static func text(_ text: String) -> ScriptStep { ScriptStep(text: text) }
    /// A structured response step.
    public static func structure(_ content: GeneratedContent) -> ScriptStep { ScriptStep(structure: content) }
    /// A tool-calling step.
    public static func toolCalls(_ calls: [ScriptedToolCall]) -> ScriptStep { ScriptStep(toolCalls: calls) }
    /// An error step, by `LanguageModelError` case name.
    public static func error(_ caseName: String, message: String? = nil) -> ScriptStep {
        ScriptStep(error: caseName, message: message)
    }

    /// Problems with this step (empty when valid): which keys conflict or what is unknown.
    public var problems: [String] {
        let set = [text != nil, structure != nil, toolCalls != nil, error != nil].filter { $0 }.count
        var found: [String] = []
        if set != 1 {
            found.append("a script step needs exactly one of 'text', 'structure', 'toolCalls', 'error' (found \(set))")
        }
        if let error, let problem = ErrorTaxonomy.problem(with: error, known: LanguageModelError.caseNames,
                                                          what: "LanguageModelError") {
            found.append(problem)
        }
        if let calls = toolCalls, calls.isEmpty { found.append("'toolCalls' needs at least one call") }
        for (name, value) in [("inputTokens", inputTokens), ("outputTokens", outputTokens)] {
            if let value, value < 0 { found.append("'\(name)' must be ≥ 0, got \(value)") }
        }
        if let latencyMs, !(latencyMs >= 0) { found.append("'latencyMs' must be ≥ 0") }
        return found
    }
}

/// A tool call written in a script: the tool's name and its arguments (an object).
public struct ScriptedToolCall: Codable, Hashable, Sendable {
    /// The tool to call.
    public var name: String
    /// The arguments (default: an empty object).
    public var arguments: GeneratedContent

    /// Creates a scripted call.
    public init(name: String, arguments: GeneratedContent = GeneratedContent(properties: [])) {
        self.name = name
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey { case name, arguments }

    /// Decodes `{name, arguments?}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        arguments = try container.decodeIfPresent(GeneratedContent.self, forKey: .arguments)
            ?? GeneratedContent(properties: [])
    }
}
