import Foundation
import Testing

/// `fmeval validate` lists every problem of a tool's argument schema at once, each at its line:column.
@Test func validateReportsEveryProblemOfAToolSchema() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("tools.yaml")
    try """
        suite: tools
        engine: scripted
        tools:
          - name: book
            description: Book a table.
            arguments:
              type: object
              required: [day, guests]
              properties:
                day: { type: string, format: date }
                guests: { type: integer, default: 2 }
                seating: { type: string, enum: [] }
                notes: { type: object }
                stars: { type: integer, enum: [1, 2, 3] }
            output: booked
        cases:
          - { id: a, prompt: hi, script: [ { text: hi } ] }
        """.write(to: suite, atomically: true, encoding: .utf8)
    let result = try runFMEval(["validate", suite.path])
    let output = result.stdout + result.stderr
    #expect(result.status == 2, "\(output)")
    #expect(output.contains("tools.yaml:10:30"), "format, at its key: \(output)")
    #expect(output.contains("tools.yaml:11:34"), "default, at its key: \(output)")
    #expect(output.contains("tools.yaml:13:9"), "free-form object, at its property's key: \(output)")
    #expect(output.contains("no \"default\"") && output.contains("no \"format\"") && output.contains("free-form object"))
    #expect(output.contains("offers no choices"), "the empty enum is reported too: \(output)")
    #expect(!output.contains("stars"), "an integer enum is accepted: \(output)")
}

/// `schema check --dialect device` refuses, at each value's line:column, what the device's decoder refuses
/// (Foundation Models 27's GenerationSchema decoder: keyNotFound for a missing title, required, x-order or
/// additionalProperties); the default dialect accepts the same schema.
@Test func schemaCheckInTheDeviceDialectRefusesWhatTheDeviceRefuses() throws {
    let folder = try temporaryFolder()
    let schema = folder.appendingPathComponent("s.json"), instance = folder.appendingPathComponent("i.json")
    try Data("""
    {"type": "object", "properties": {"name": {"type": "string"}},
     "required": ["name"], "x-order": ["name"], "additionalProperties": false}

    """.utf8).write(to: schema)
    try Data(#"{"name": "Ada"}"#.utf8).write(to: instance)
    #expect(try runFMEval(["schema", "check", schema.path, instance.path]).status == 0)
    let device = try runFMEval(["schema", "check", "--dialect", "device", schema.path, instance.path])
    #expect(device.status == 2, "\(device.stdout)\(device.stderr)")
    #expect(device.stderr.contains("s.json:1:1: at the top level: the device refuses an object without \"title\""), "\(device.stderr)")
    let titled = folder.appendingPathComponent("t.json")
    try Data(#"{"title": "P", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "x-order": ["name"], "additionalProperties": false}"#.utf8)
        .write(to: titled)
    #expect(try runFMEval(["schema", "check", "--dialect", "device", titled.path, instance.path]).status == 0)
    let unknown = try runFMEval(["schema", "check", "--dialect", "phone", titled.path, instance.path])
    #expect(unknown.status == 2 && unknown.stderr.contains("use fmeval or device"))
}

/// `expect: {error: toolCallError}` validates and matches a throwing tool; `toolCallFailed`, fmeval's
/// earlier name, still loads with a did-you-mean warning and matches the same error.
@Test func toolCallErrorIsTheNameAndToolCallFailedADeprecatedAlias() throws {
    let folder = try temporaryFolder()
    let suite = folder.appendingPathComponent("tools.yaml")
    try """
        suite: tools
        engine: scripted
        tools:
          - name: lookup
            description: Looks a thing up.
            arguments: { type: object, properties: { q: { type: string } }, required: [q] }
            output: { command: [sh, -c, "exit 3"] }
        cases:
          - id: fm-name
            prompt: hi
            script: [ { toolCalls: [ { name: lookup, arguments: { q: x } } ] } ]
            expect: { error: toolCallError }
          - id: old-name
            prompt: hi
            script: [ { toolCalls: [ { name: lookup, arguments: { q: x } } ] } ]
            expect: { error: toolCallFailed }
        """.write(to: suite, atomically: true, encoding: .utf8)
    let validate = try runFMEval(["validate", suite.path])
    #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    let output = validate.stdout + validate.stderr
    #expect(output.contains("tools.yaml:16:22") && output.contains("did you mean 'toolCallError'"), "\(output)")
    let run = try runFMEval(["run", suite.path, "-o", folder.appendingPathComponent("out").path, "-v"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("PASS  tools/fm-name") && run.stdout.contains("PASS  tools/old-name"), "\(run.stdout)")
}
