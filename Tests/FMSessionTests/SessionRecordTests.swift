import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// A record from a later turn on is that turn's session: the instructions, then its own entries and
/// counters, as the contamination check scores a case after other cases' prompts.
@Test func droppingFirstTurnsKeepsTheInstructionsAndTheLaterTurnsOnly() throws {
    let script = EngineScript.turns([[.toolCalls([call(city: "Paris")]), .text("Sunny.")], [.text("Bonjour.")],
                                     [.text("Happy birthday!")]])
    let plan = SessionPlan(configuration: SessionConfiguration(instructions: "Be brief.", tools: [try cityTool()]),
                           turns: ["Weather in Paris?", "Say hello in French.", "Wish my sister a happy birthday."])
    let record = try EngineSessionDriver(engine: ScriptedEngine(script: script)).run(plan)
    #expect(entryKinds(record.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt",
                                              "response", "prompt", "response"])
    let last = record.droppingFirstTurns(2)
    #expect(entryKinds(last.transcript) == ["instructions", "prompt", "response"])
    #expect(StructuredTranscript(last.transcript).toolCalls.isEmpty, "the first turn's call is not the case's")
    #expect(last.text == "Happy birthday!" && last.turns == [record.turns[2]])
    #expect(last.totals.engineCalls == 1 && record.totals.engineCalls == 4)
    #expect(last.turnOffsetsMs == [0] && last.tokenCounts == record.tokenCounts)
    #expect(record.droppingFirstTurns(0).transcript == record.transcript)
}

/// A session that ended before the kept turn started leaves no turn, no answer and only the instructions.
@Test func droppingMoreTurnsThanStartedLeavesNoTurn() throws {
    let plan = SessionPlan(configuration: SessionConfiguration(instructions: "Be brief."), turns: ["One.", "Two."])
    let record = try EngineSessionDriver(engine: ScriptedEngine(script: .turns([[.text("1")], [.text("2")]]))).run(plan)
    let none = record.droppingFirstTurns(3)
    #expect(entryKinds(none.transcript) == ["instructions"] && none.turns.isEmpty && none.text == nil)
}
