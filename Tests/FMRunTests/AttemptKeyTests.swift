import Testing
import FMCore
import FMSession
@testable import FMRun

/// The reuse key is the session plan itself: a change to any field of the plan (or of its configuration)
/// is a different key, so no repeat is ever answered from a different request.
@Test func everyFieldOfThePlanEntersTheReuseKey() throws {
    let base = SessionPlan(configuration: SessionConfiguration(instructions: "Be brief."), turns: ["Hi"])
    let schema = try GenerationSchema(content: GeneratedContent(json: #"{"type": "string"}"#))
    let changes: [(String, (inout SessionPlan) -> Void)] = [
        ("instructions", { $0.configuration.instructions = "Be long." }),
        ("options", { $0.configuration.options.maximumResponseTokens = 7 }),
        ("schema", { $0.configuration.schema = schema }),
        ("constrained", { $0.configuration.constrained = false }),
        ("includeSchemaInPrompt", { $0.configuration.includeSchemaInPrompt = false }),
        ("contextSize", { $0.configuration.contextSize = 8192 }),
        ("maxToolCalls", { $0.configuration.maxToolCalls = 1 }),
        ("baseDirectory", { $0.configuration.baseDirectory = "/elsewhere" }),
        ("guideEnforcement", { $0.configuration.guideEnforcement = .device }),
        ("loopGuards", { $0.configuration.loopGuards = LoopGuards.defaults(for: .device) }),
        ("imageTokens", { $0.configuration.imageTokens = 1 }),
        ("turns", { $0.turns = ["Hi", "Again"] }),
        ("edits", { $0.edits = [1: TranscriptEdit(keepLast: 1)] }),
    ]
    let key = try #require(AttemptKey(base, engineKey: ""))
    #expect(AttemptKey(base, engineKey: "") == key)
    #expect(AttemptKey(base, engineKey: "script 2") != key)
    for (field, change) in changes {
        var changed = base
        change(&changed)
        #expect(AttemptKey(changed, engineKey: "") != key, "\(field) does not enter the reuse key")
    }
}
