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
    #expect(output.contains("tools.yaml:10:38"), "format: \(output)")
    #expect(output.contains("tools.yaml:11:43"), "default: \(output)")
    #expect(output.contains("tools.yaml:13:16"), "free-form object: \(output)")
    #expect(output.contains("no \"default\"") && output.contains("no \"format\"") && output.contains("free-form object"))
    #expect(output.contains("offers no choices"), "the empty enum is reported too: \(output)")
    #expect(!output.contains("stars"), "an integer enum is accepted: \(output)")
}
