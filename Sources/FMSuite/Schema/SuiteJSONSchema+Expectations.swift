/// The expectation definitions of the suite JSON Schema (`expect` and every kind), between the suite
/// and tool definitions and the scripted engine's.
extension SuiteJSONSchema {
    /// The `expect` … `judge`/`scale` members of `$defs`, each line ending as in the whole schema.
    static let expectationDefinitions = #"""
    "expect": {
      "description": "Expectations: a list of mappings naming a kind, or one mapping with a key per expectation.",
      "anyOf": [
        { "type": "null" },
        { "$ref": "#/$defs/expectations" },
        { "type": "array", "items": { "$ref": "#/$defs/expectations", "minProperties": 1 } }
      ]
    },
    "expectations": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "equals": {
          "description": "The output equals a value; or {value, path?, ignoreCase?}.",
          "anyOf": [{ "$ref": "#/$defs/equalsCheck" }, true]
        },
        "oneOf": {
          "description": "The output equals one of the values; or {values, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "array" },
            {
              "type": "object", "additionalProperties": false, "required": ["values"],
              "properties": { "values": { "type": "array", "minItems": 1 }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        },
        "contains": {
          "description": "The output text contains every substring; one string, a list, or {substrings, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "string" },
            { "type": "array", "minItems": 1, "items": { "type": "string" } },
            {
              "type": "object", "additionalProperties": false, "required": ["substrings"],
              "properties": { "substrings": { "type": "array", "minItems": 1, "items": { "type": "string" } }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        },
        "regex": {
          "description": "The output text matches a regular expression; or {pattern, path?, ignoreCase?}.",
          "anyOf": [
            { "type": "string" },
            {
              "type": "object", "additionalProperties": false, "required": ["pattern"],
              "properties": { "pattern": { "type": "string" }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
            }
          ]
        },
        "not": { "$ref": "#/$defs/expectations", "description": "Any one expectation, inverted.", "minProperties": 1, "maxProperties": 1 },
        "constraints": { "$ref": "#/$defs/constraints", "description": "Schema violations within budgets, against the requested schema unless schema is given." },
        "schema": {
          "description": "Violations of this schema (a file path, an inline schema, or {schema, maxViolations?, maxViolationsPerKeyword?}).",
          "anyOf": [{ "type": "string" }, { "$ref": "#/$defs/constraints" }, { "$ref": "#/$defs/generationSchema" }]
        },
        "toolCalls": { "$ref": "#/$defs/trajectory" },
        "error": {
          "description": "The attempt ends in an error: its case name, or {caseName?, messageContains?}; empty accepts any error.",
          "anyOf": [
            { "type": "null" },
            { "$ref": "#/$defs/errorName" },
            {
              "type": "object", "additionalProperties": false,
              "properties": { "caseName": { "$ref": "#/$defs/errorName" }, "messageContains": { "type": "string", "description": "Text the message must contain." } }
            }
          ]
        },
        "usage": {
          "type": "object", "additionalProperties": false, "description": "Token budgets for the attempt (all turns and tool rounds).",
          "properties": {
            "maxInputTokens": { "type": "integer", "minimum": 0 }, "maxOutputTokens": { "type": "integer", "minimum": 0 },
            "maxTotalTokens": { "type": "integer", "minimum": 0 }, "maxReasoningTokens": { "type": "integer", "minimum": 0 }
          }
        },
        "latency": {
          "type": "object", "additionalProperties": false, "description": "Time budgets in milliseconds.",
          "properties": { "maxMilliseconds": { "type": "number", "minimum": 0 }, "maxTimeToFirstSnapshotMilliseconds": { "type": "number", "minimum": 0 } }
        },
        "snapshots": {
          "description": "Streamed snapshots: exactly N, or {minimum?, maximum?}.",
          "anyOf": [
            { "type": "integer", "minimum": 0 },
            { "type": "object", "additionalProperties": false, "properties": { "minimum": { "type": "integer", "minimum": 0 }, "maximum": { "type": "integer", "minimum": 0 } } }
          ]
        },
        "judge": { "$ref": "#/$defs/judge" },
        "command": {
          "description": "An external program judges the response (subject as JSON on stdin, one JSON metric on stdout); argv, or {argv, timeoutSeconds?, name?}.",
          "anyOf": [
            { "type": "array", "minItems": 1, "items": { "type": "string" } },
            {
              "type": "object", "additionalProperties": false, "required": ["argv"],
              "properties": {
                "argv": { "type": "array", "minItems": 1, "items": { "type": "string" } },
                "timeoutSeconds": { "type": "number", "exclusiveMinimum": 0, "description": "Default 30." },
                "name": { "type": "string", "description": "The metric's name (default command)." }
              }
            }
          ]
        }
      }
    },
    "pointer": { "type": "string", "description": "A JSON pointer (such as /team) selecting a part of structured output." },
    "ignoreCase": { "type": "boolean", "description": "Compare text case-insensitively." },
    "equalsCheck": {
      "type": "object", "additionalProperties": false, "required": ["value"],
      "properties": { "value": { "description": "The expected value." }, "path": { "$ref": "#/$defs/pointer" }, "ignoreCase": { "$ref": "#/$defs/ignoreCase" } }
    },
    "constraints": {
      "anyOf": [
        { "type": "null" },
        {
          "type": "object", "additionalProperties": false,
          "properties": {
            "schema": { "$ref": "#/$defs/schemaOrFile" },
            "maxViolations": { "type": "integer", "minimum": 0, "description": "Most violations allowed (default 0)." },
            "maxViolationsPerKeyword": { "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 }, "description": "Most violations per schema keyword, e.g. {enum: 0}." }
          }
        }
      ]
    },
    "errorName": {
      "description": "A LanguageModelError case name.",
      "enum": ["contextSizeExceeded", "rateLimited", "refusal", "timeout", "guardrailViolation", "unsupportedCapability",
               "unsupportedTranscriptContent", "unsupportedGenerationGuide", "unsupportedLanguageOrLocale"]
    },
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
        "judgeEngine": { "type": "string", "description": "The engine judging naturalLanguage matchers." }
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
            "arguments": { "type": "object", "description": "Argument name (or JSON pointer) to a matcher; a bare value means exact.", "additionalProperties": { "$ref": "#/$defs/argumentMatcher" } }
          }
        }
      ]
    },
    "argumentMatcher": {
      "anyOf": [
        {
          "type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
          "properties": {
            "exact": { "description": "Equals this value." },
            "keyOnly": { "const": true, "description": "Present, any value." },
            "oneOf": { "type": "array", "minItems": 1 },
            "range": { "type": "object", "additionalProperties": false, "properties": { "minimum": { "type": "number" }, "maximum": { "type": "number" } } },
            "pattern": { "type": "string", "description": "A regular expression." },
            "contains": { "type": "string" },
            "hasPrefix": { "type": "string" },
            "hasSuffix": { "type": "string" },
            "naturalLanguage": { "type": "string", "description": "Criteria judged by a model." }
          }
        },
        true
      ]
    },
    "judge": {
      "type": "object",
      "description": "A model judges the response.",
      "additionalProperties": false,
      "properties": {
        "name": { "type": "string", "description": "The metric's name (default judge)." },
        "engine": { "type": "string", "description": "The judge's engine." },
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
    },
"""#
}
