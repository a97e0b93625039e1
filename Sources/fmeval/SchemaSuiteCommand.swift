import FMCore
import FMEngines
import FMSuite

/// `fmeval schema suite`: print the JSON Schema of the suite format, for editors.
struct SchemaSuiteCommand: Command {
    static let path = ["schema", "suite"]
    static let summary = "Print the JSON Schema (draft 2020-12) of the suite format, for editor completion"
    static let usage = CommandUsage("schema suite")
    static let help = """
    \(usage.line)

    Prints a JSON Schema (draft 2020-12) describing every key a suite file may hold, with descriptions,
    for editors and YAML language servers. Save it and point your editor at it, e.g.

      fmeval schema suite > suite.schema.json

    then start a suite with `# yaml-language-server: $schema=suite.schema.json` (see
    docs/suite-format.md, "Editor support"). The schema checks shapes and key names; 'fmeval validate'
    still checks everything else (files, tool and variant names, templates, regexes, gates).

    Exit codes: 0 printed · 2 an unexpected argument.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let extra = try Arguments(arguments, command: "schema suite", flags: usage.flags).positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("schema suite: takes no arguments, got '\(extra.joined(separator: " "))'; redirect the output to save it: fmeval schema suite > suite.schema.json")
        }
        printJSON(SuiteJSONSchema.text(engine: EngineRegistry.jsonSchemaDefinition))
        return ExitStatus.ok
    }
}
