import FMEngines
import FMEvaluate

/// The JSON Schema (draft 2020-12) of the suite format, for editors and YAML language servers
/// (`fmeval schema suite` prints it; docs/suite-format.md shows how to use it).
///
/// It describes every key `SuiteReader` accepts and is closed (`additionalProperties: false`) wherever
/// the reader rejects unknown keys. The reader stays the judge of what a suite means: files, tool
/// names, variant references and templates are checked by `fmeval validate`, not by the schema.
public enum SuiteJSONSchema {
    /// The schema as JSON text: the suite, case and tool definitions here, the expectations assembled
    /// from `registry`'s kinds in `SuiteJSONSchema+Expectations.swift`, `engine` (the JSON Schema of
    /// the `engine:` value, which the engine registry writes: `EngineRegistry.jsonSchemaDefinition`) as
    /// `$defs/engine`, and the engines' per-case data (`EngineRegistry.caseDataKinds`) as case properties.
    public static func text(engine: String, registry: ExpectationRegistry = .builtIn) -> String {
        let head = head.replacingOccurrences(of: engineSlot, with: #""engine": "# + engine)
            .replacingOccurrences(of: runSettingsSlot, with: runSettingMembers)
            .replacingOccurrences(of: reproducedWithSlot, with: reproducedWithValues)
            .replacingOccurrences(of: deviceSlot, with: deviceDefinition)
        var body = ([head, expectationDefinitions(registry)] + engineDataDefinitions.map { $0 + "," })
            .joined(separator: "\n").replacingOccurrences(of: engineDataSlot, with: engineDataMembers)
        while body.last == "\n" || body.last == "," { body.removeLast() }
        return body + "\n  }\n}"
    }

    /// Where `text(engine:)` puts the engine definition.
    private static let engineSlot = #""engine": {}"#

    /// Where `text(engine:)` puts the values of `reproducedWith` (`ReproducedWith`).
    private static let reproducedWithSlot = #""enum": ["reproducedWith"]"#

    /// `"enum": [...]` of every `ReproducedWith` value.
    private static var reproducedWithValues: String {
        #""enum": ["# + ReproducedWith.allCases.map { #""\#($0.rawValue)""# }.joined(separator: ", ") + "]"
    }

    /// Where `text(engine:)` puts the definition of `device` (`DeviceProfile.all`).
    private static let deviceSlot = #""device": {}"#

    /// `$defs/device`: one of the profiles' names.
    private static var deviceDefinition: String {
        #""device": { "enum": ["# + DeviceProfile.names.map { #""\#($0)""# }.joined(separator: ", ") + #"], "#
            + #""description": "A device profile: its context window and guide enforcement lie under this level's "#
            + #"options (docs/device-differences.md)." }"#
    }

    /// Where `text(engine:)` puts the run settings of `options` (`RunSettingTable`).
    private static let runSettingsSlot = #""runSettings": {}"#

    /// The run settings' members of `$defs/options/properties`, indented as there.
    private static var runSettingMembers: String {
        RunSettingTable.all.map(\.schemaMember).joined(separator: ",\n")
            .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? String($0.element) : "        " + $0.element }.joined(separator: "\n")
    }

    /// The schema up to the expectation definitions (inside `$defs`), with an empty engine definition.
    private static let head = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "fmeval suite",
  "description": "An fmeval eval suite: prompts, expected outputs, constraint cases and tool-call trajectories (docs/suite-format.md).",
  "type": "object",
  "additionalProperties": false,
  "required": ["suite"],
  "anyOf": [{ "required": ["cases"] }, { "required": ["dataset"] }, { "required": ["transcripts"] }],
  "if": { "required": ["transcripts"] },
  "then": { "properties": { "cases": { "items": { "$ref": "#/$defs/recordedCase" } } } },
  "else": { "properties": { "cases": { "items": { "$ref": "#/$defs/case" } } } },
  "properties": {
    "suite": { "type": "string", "description": "The suite's name; case ids print as suite/case (suite/case@variant)." },
    "description": { "type": "string", "description": "One line about what the suite checks." },
    "engine": { "$ref": "#/$defs/engine" },
    "model": { "$ref": "#/$defs/model" },
    "options": { "$ref": "#/$defs/options" },
    "device": { "$ref": "#/$defs/device" },
    "instructions": { "$ref": "#/$defs/text", "description": "The instructions entry (transcript entry 0)." },
    "tools": { "type": "array", "description": "Tools the model may call.", "items": { "$ref": "#/$defs/tool" } },
    "generating": { "$ref": "#/$defs/generating" },
    "dataset": { "$ref": "#/$defs/stringList", "description": "A .jsonl file (or a list of them) with one case per line, relative to the suite." },
    "variants": { "type": "array", "description": "Named alternative runs of every case.", "items": { "$ref": "#/$defs/variant" } },
    "defaults": { "$ref": "#/$defs/defaults" },
    "cases": { "type": "array", "description": "The cases; in a suite with transcripts, entries that add expectations to a transcript by id." },
    "transcripts": {
      "description": "Recorded FoundationModels.Transcript JSON files scored instead of running a model: a path, a folder or a glob (recorded/*.json), or a list of those and of {path, id}; each file is a case named after it.",
      "anyOf": [{ "type": "string" },
                { "type": "array", "minItems": 1, "items": { "anyOf": [{ "type": "string" },
                  { "type": "object", "additionalProperties": false, "required": ["path"],
                    "properties": { "path": { "type": "string" }, "id": { "$ref": "#/$defs/text" } } }] } }]
    },
    "knownIssue": { "$ref": "#/$defs/knownIssue" },
    "source": {
      "description": "The bug report the suite reproduces: an http(s) link or a short title, or {url, title}. Required for suites under suites/forum/.",
      "anyOf": [{ "type": "string" },
                { "type": "object", "additionalProperties": false, "minProperties": 1,
                  "properties": { "url": { "type": "string", "format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://" },
                                  "title": { "type": "string" } } }]
    },
    "reproducedWith": {
      "enum": ["reproducedWith"],
      "description": "What produces the reported behaviour: the real model on the chosen engine, the scripted engine standing in for Apple's model, or a transcript recorded on a device."
    },
    "summary": { "$ref": "#/$defs/text", "description": "One paragraph: what was reported, the correct behaviour, what the suite checks." },
    "environment": {
      "type": "object", "additionalProperties": false,
      "description": "What command tools and evaluators see: PATH, HOME, LANG, LC_*, TMPDIR, TZ, plus these.",
      "properties": {
        "pass": { "description": "Variables taken from fmeval's environment (NAME or PREFIX*).",
                  "anyOf": [{ "type": "string", "pattern": "^([A-Za-z_][A-Za-z0-9_]*\\*?|\\*)$" },
                            { "type": "array", "items": { "type": "string", "pattern": "^([A-Za-z_][A-Za-z0-9_]*\\*?|\\*)$" } }] },
        "set": { "type": "object", "description": "Variables set to fixed values.",
                 "additionalProperties": { "type": ["string", "number", "boolean"] } }
      }
    },
    "secrets": { "description": "Variables whose values are redacted from every output.",
                 "anyOf": [{ "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" },
                           { "type": "array", "items": { "type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$" } }] },
    "toolOutputLimit": { "type": "integer", "minimum": 1, "description": "Bytes of a command tool's output kept (default 65536)." },
    "allowLinksOutsideSuite": { "type": "boolean", "description": "Follow referenced files' symbolic links that leave the suite's folder (default false)." }
  },
  "$defs": {
    "text": { "type": ["string", "number", "boolean"], "description": "Text; a number or boolean is read as its text." },
    "stringList": {
      "description": "One string or a list of strings.",
      "anyOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
    },
    "engine": {},
    "reproduce": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "anyOf": [{ "required": ["seeds"] }, { "required": ["paraphrases"] }],
      "description": "Attempts with controlled variation (replaces repeat): each wording (the prompt, then each paraphrase) × each seed; without seeds the attempts are greedy.",
      "properties": {
        "seeds": { "description": "N (seeds 1…N) or a list of distinct seeds; each attempt samples with its seed.",
                   "anyOf": [{ "type": "integer", "minimum": 1, "maximum": 1000 },
                             { "type": "array", "minItems": 1, "maxItems": 1000, "uniqueItems": true, "items": { "type": "integer", "minimum": 0 } }] },
        "temperature": { "type": "number", "minimum": 0, "description": "Temperature of seeded attempts (default 0.7)." },
        "sampling": { "description": "Sampling of seeded attempts (default {randomTopK: 40}); the seed comes from seeds.",
                      "type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
                      "properties": { "randomTopK": { "type": "integer", "minimum": 1 }, "topK": { "type": "integer", "minimum": 1 },
                                      "randomProbabilityThreshold": { "type": "number", "exclusiveMinimum": 0, "maximum": 1 },
                                      "probabilityThreshold": { "type": "number", "exclusiveMinimum": 0, "maximum": 1 } } },
        "paraphrases": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/text" }, "description": "More wordings of the prompt; the case's own prompt is the first." }
      }
    },
    "model": { "type": "string", "description": "A model name the engine looks up, or (when it contains /) a file path relative to the suite." },
    "device": {},
    "knownIssue": {
      "description": "Marks a known issue: the reason as text, or {reason, url, matching, intermittent}.",
      "anyOf": [
        { "type": "string" },
        {
          "type": "object",
          "additionalProperties": false,
          "required": ["reason"],
          "properties": {
            "reason": { "type": "string", "description": "Why it is known to fail." },
            "url": { "type": "string", "format": "uri", "description": "The issue tracking it." },
            "matching": { "$ref": "#/$defs/stringList", "description": "The failures it covers: expectation kinds, metric names, response, or error names (default: any failure, with a warning)." },
            "intermittent": { "type": "boolean", "description": "It reproduces only sometimes: a pass is not 'no longer reproduces'." }
          }
        }
      ]
    },
    "caseKnownIssue": {
      "description": "Marks a known issue of this case: the reason as text, or {reason, url, matching, intermittent, variants}.",
      "anyOf": [
        { "type": "string" },
        {
          "type": "object",
          "additionalProperties": false,
          "required": ["reason"],
          "properties": {
            "reason": { "type": "string", "description": "Why it is known to fail." },
            "url": { "type": "string", "format": "uri", "description": "The issue tracking it." },
            "matching": { "$ref": "#/$defs/stringList", "description": "The failures it covers: expectation kinds, metric names, response, or error names (default: any failure, with a warning)." },
            "intermittent": { "type": "boolean", "description": "It reproduces only sometimes: a pass is not 'no longer reproduces'." },
            "variants": { "$ref": "#/$defs/stringList", "description": "Only under these variants (default: all the case runs under)." }
          }
        }
      ]
    },
    "options": {
      "type": "object",
      "description": "Generation options and run settings; suite, variant and case options layer key by key.",
      "additionalProperties": false,
      "properties": {
        "sampling": {
          "description": "greedy (default), {randomTopK, seed?} or {randomProbabilityThreshold, seed?} (also spelled topK, probabilityThreshold).",
          "anyOf": [
            { "const": "greedy" },
            {
              "type": "object", "additionalProperties": false, "required": ["randomTopK"],
              "properties": { "randomTopK": { "type": "integer", "minimum": 1, "description": "Sample among the K most likely tokens (Apple's random(top:seed:))." }, "seed": { "$ref": "#/$defs/seed" } }
            },
            {
              "type": "object", "additionalProperties": false, "required": ["randomProbabilityThreshold"],
              "properties": { "randomProbabilityThreshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "Nucleus sampling threshold (Apple's random(probabilityThreshold:seed:))." }, "seed": { "$ref": "#/$defs/seed" } }
            },
            {
              "type": "object", "additionalProperties": false, "required": ["topK"],
              "properties": { "topK": { "type": "integer", "minimum": 1, "description": "Sample among the K most likely tokens." }, "seed": { "$ref": "#/$defs/seed" } }
            },
            {
              "type": "object", "additionalProperties": false, "required": ["probabilityThreshold"],
              "properties": { "probabilityThreshold": { "type": "number", "minimum": 0, "maximum": 1, "description": "Nucleus sampling threshold." }, "seed": { "$ref": "#/$defs/seed" } }
            }
          ]
        },
        "temperature": { "type": "number", "minimum": 0, "description": "Temperature for random sampling (no effect under greedy sampling: a warning)." },
        "maximumResponseTokens": { "type": "integer", "minimum": 0, "description": "Truncates the response (recorded as a flag on the attempt)." },
        "toolCallingMode": { "enum": ["allowed", "required", "disallowed"], "description": "Whether the model may, must or must not call tools (default allowed)." },
        "runSettings": {}
      }
    },
    "seed": { "type": "integer", "minimum": 0, "description": "Random seed." },
    "generationSchema": {
      "type": "object",
      "description": "A GenerationSchema (Foundation Models JSON-Schema dialect).",
      "additionalProperties": false,
      "properties": {
        "type": { "enum": ["object", "string", "integer", "number", "boolean", "null", "array"], "description": "The JSON type." },
        "title": { "type": "string", "description": "The type's name." },
        "description": { "type": "string", "description": "A guide for the model." },
        "properties": { "type": "object", "description": "An object's properties.", "additionalProperties": { "$ref": "#/$defs/generationSchema" } },
        "x-order": { "type": "array", "items": { "type": "string" }, "description":
            "The order properties are generated in; it must list every property." },
        "required": { "type": "array", "items": { "type": "string" }, "description": "Properties that must be present." },
        "additionalProperties": { "type": "boolean", "description": "Must be false when given: objects are closed." },
        "enum": { "type": "array", "items": { "type": ["string", "number"] }, "description": "The allowed values: strings for a string, numbers for an integer or number (read as single-value ranges)." },
        "pattern": { "type": "string", "description": "A regular expression a string must match." },
        "minimum": { "type": "number", "description": "A number's least value." },
        "maximum": { "type": "number", "description": "A number's greatest value." },
        "items": { "$ref": "#/$defs/generationSchema", "description": "The schema of an array's elements." },
        "minItems": { "type": "integer", "minimum": 0, "description": "An array's least length." },
        "maxItems": { "type": "integer", "minimum": 0, "description": "An array's greatest length." },
        "anyOf": { "type": "array", "items": { "$ref": "#/$defs/generationSchema" }, "description": "Choices." },
        "$ref": { "type": "string", "description": "#/$defs/NAME, or # for the root." },
        "$defs": { "type": "object", "additionalProperties": { "$ref": "#/$defs/generationSchema" }, "description": "Named schemas (root only)." }
      }
    },
    "schemaOrFile": {
      "description": "A GenerationSchema written inline, or a path to a .json or .yaml file holding one.",
      "anyOf": [{ "type": "string" }, { "$ref": "#/$defs/generationSchema" }]
    },
    "generating": {
      "description": "The output the model must generate: a type name, {enum}, {type} or {schema}; absent means free text.",
      "anyOf": [
        { "$ref": "#/$defs/typeName" },
        {
          "type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
          "properties": {
            "enum": { "$ref": "#/$defs/stringList", "description": "A string enum (the classification shorthand)." },
            "type": { "$ref": "#/$defs/typeName" },
            "schema": { "$ref": "#/$defs/schemaOrFile" }
          }
        }
      ]
    },
    "typeName": { "enum": ["string", "integer", "number", "boolean"], "description": "A plain output type." },
    "tool": {
      "type": "object",
      "description": "A tool the model may call, with exactly one of output or outputs.",
      "additionalProperties": false,
      "required": ["name"],
      "oneOf": [{ "required": ["output"] }, { "required": ["outputs"] }],
      "properties": {
        "name": { "type": "string", "description": "The tool's name (unique in the suite)." },
        "description": { "type": "string", "description": "What the tool does, shown to the model." },
        "arguments": { "$ref": "#/$defs/schemaOrFile", "description": "The arguments schema (default: an object with no properties)." },
        "output": { "$ref": "#/$defs/toolOutput" },
        "outputs": {
          "type": "array", "minItems": 1,
          "description": "Rules by argument: the first rule whose when values all equal the call's arguments answers; a rule without when is the fallback.",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["output"],
            "properties": {
              "when": { "type": "object", "description": "Argument values this rule answers." },
              "output": { "$ref": "#/$defs/toolOutput" }
            }
          }
        }
      }
    },
    "toolOutput": {
      "description": "What the tool returns: text, {json}, {file} or {command, timeoutSeconds?}.",
      "anyOf": [
        { "type": ["string", "number", "boolean"] },
        {
          "type": "object", "additionalProperties": false,
          "oneOf": [{ "required": ["json"] }, { "required": ["file"] }, { "required": ["command"] }],
          "properties": {
            "json": { "description": "A structured output." },
            "file": { "type": "string", "description": "A fixture file whose text is the output, read when the suite loads." },
            "command": { "$ref": "#/$defs/argv", "description": "Run per call: the arguments as JSON on stdin, its stdout is the output." },
            "timeoutSeconds": { "type": "number", "exclusiveMinimum": 0, "description": "Seconds before the command is stopped (default 30)." }
          }
        }
      ]
    },
    "argv": {
      "description": "A program and its arguments (no shell).",
      "anyOf": [{ "type": "string" }, { "type": "array", "minItems": 1, "items": { "type": "string" } }]
    },
    "variant": {
      "type": "object",
      "description": "A named alternative run of every case.",
      "additionalProperties": false,
      "required": ["name"],
      "properties": {
        "name": { "type": "string", "description": "The variant's name (--variant NAME picks it)." },
        "instructions": { "$ref": "#/$defs/text", "description": "Replaces the instructions." },
        "prompt": { "$ref": "#/$defs/text", "description": "A template: {{prompt}}, {{id}} and {{NAME}} for the case's vars.NAME." },
        "options": { "$ref": "#/$defs/options" },
        "device": { "$ref": "#/$defs/device" },
        "engine": { "$ref": "#/$defs/engine" },
        "model": { "$ref": "#/$defs/model" },
        "knownIssue": { "$ref": "#/$defs/knownIssue" }
      }
    },
    "defaults": {
      "type": "object",
      "description": "Applied to every case: default expectations come before each case's own; a case's repeat, reproduce and gate replace these.",
      "additionalProperties": false,
      "not": { "required": ["reproduce", "repeat"] },
      "properties": {
        "expect": { "$ref": "#/$defs/expect" },
        "repeat": { "type": "integer", "minimum": 1, "description": "Attempts per case." },
        "reproduce": { "$ref": "#/$defs/reproduce" },
        "gate": { "$ref": "#/$defs/gate" },
        "tags": { "$ref": "#/$defs/stringList", "description": "Labels for --filter and reports." }
      }
    },
    "turn": {
      "description": "One turn: its prompt, or {prompt, transcript} to edit the history before it.",
      "oneOf": [
        { "$ref": "#/$defs/text" },
        {
          "type": "object",
          "additionalProperties": false,
          "required": ["prompt"],
          "properties": {
            "prompt": { "$ref": "#/$defs/text" },
            "transcript": {
              "type": "object",
              "additionalProperties": false,
              "minProperties": 1,
              "description": "Edits the history before this turn: drop entries of these kinds, then keep the last keepLast.",
              "properties": {
                "keepLast": { "type": "integer", "minimum": 0 },
                "drop": { "type": "array", "items": { "enum": ["prompt", "response", "reasoning", "toolCalls", "toolOutput"] } }
              }
            }
          }
        }
      ]
    },
    "case": {
      "type": "object",
      "description": "One case: exactly one of prompt or turns.",
      "additionalProperties": false,
      "required": ["id"],
      "oneOf": [{ "required": ["prompt"] }, { "required": ["turns"] }],
      "not": { "required": ["reproduce", "repeat"] },
      "properties": {
        "id": { "$ref": "#/$defs/text", "minLength": 1, "description": "Unique in the suite; not empty." },
        "prompt": { "$ref": "#/$defs/text", "description": "The prompt (one turn)." },
        "turns": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/turn" }, "description": "Prompts of a multi-turn conversation." },
        "instructions": { "$ref": "#/$defs/text", "description": "Overrides the suite's instructions." },
        "generating": { "$ref": "#/$defs/generating" },
        "options": { "$ref": "#/$defs/options" },
        "device": { "$ref": "#/$defs/device" },
        "tags": { "$ref": "#/$defs/stringList", "description": "Labels for --filter and reports." },
        "repeat": { "type": "integer", "minimum": 1, "description": "Attempts (default 1)." },
        "reproduce": { "$ref": "#/$defs/reproduce" },
        "gate": { "$ref": "#/$defs/gate" },
        "expect": { "$ref": "#/$defs/expect" },
        "vars": { "type": "object", "additionalProperties": { "$ref": "#/$defs/text" }, "description": "Values for variant prompt templates." },
        "variants": { "$ref": "#/$defs/stringList", "description": "Limit the case to these variants." },
        "engineData": {},
        "knownIssue": { "$ref": "#/$defs/caseKnownIssue" },
        "images": {
          "type": "array",
          "description": "Images attached to the prompt after its text (PNG, JPEG, GIF or WebP files, relative to the suite).",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["file"],
            "properties": {
              "file": { "type": "string", "description": "The image file, relative to the suite." },
              "label": { "type": "string", "description": "A name the model and tools can refer to the image by." }
            }
          }
        }
      }
    },
    "recordedCase": {
      "type": "object",
      "description": "Expectations, tags and a known issue for the recorded transcript with this id (its file name without .json).",
      "additionalProperties": false,
      "required": ["id"],
      "properties": {
        "id": { "$ref": "#/$defs/text", "description": "The transcript's id." },
        "tags": { "$ref": "#/$defs/stringList", "description": "Labels for --filter and reports." },
        "expect": { "$ref": "#/$defs/expect" },
        "knownIssue": { "$ref": "#/$defs/caseKnownIssue" }
      }
    },
    "gate": {
      "type": "object",
      "description": "How many attempts must pass; without a gate every attempt must pass.",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "minPassRate": { "type": "number", "minimum": 0, "maximum": 1, "description": "The least pass rate." },
        "minPasses": { "type": "integer", "minimum": 0, "description": "The least number of passing attempts (at most repeat)." }
      }
    },
"""#

    /// The `$defs` members of the engines' per-case data (`EngineCaseDataKind.schemaDefinitions`), indented.
    private static var engineDataDefinitions: [String] {
        EngineRegistry.caseDataKinds.map(\.schemaDefinitions).filter { !$0.isEmpty }.map { indented($0, by: 4) }
    }

    /// The case's (and a judge's) properties for the engines' per-case data, each a reference to its `$defs`.
    static var engineDataMembers: String {
        EngineRegistry.caseDataKinds.map { ##""\##($0.key)": { "$ref": "#/$defs/\##($0.key)" },"## }.joined()
    }

    /// Where the case's and the judge's properties take `engineDataMembers`.
    static let engineDataSlot = #""engineData": {},"#
}
