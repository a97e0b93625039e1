import FMCore
import FMSession
import Foundation
import Testing
@testable import FMEngines

/// The embedded engine under the device's context-window rules, with the real model. Run optimized:
/// `swift test -c release -Xswiftc -enable-testing --filter EmbeddedWindow`.
@Suite(.serialized)
struct EmbeddedWindowTests {
    private static let story = "Write a long story about a dragon who learns to bake bread."

    @Test func aResponseRunningOffTheWindowThrowsContextSizeExceeded() throws {
        let engine = try EmbeddedEngineTests.engine.get()
        let request = EngineRequest(transcript: Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: Self.story))]))]))
        let promptTokens = try #require(try engine.promptTokenCount(for: request))
        let session = LanguageModelSession(engine: engine, configuration: SessionConfiguration(contextSize: promptTokens + 8))
        do {
            _ = try session.respond(to: Self.story)
            Issue.record("a story does not fit in 8 tokens")
        } catch let error as LanguageModelError {
            #expect(error.caseName == "contextSizeExceeded")
            #expect(error.description.contains("ran past the 8 left"), "\(error)")
        }
        #expect(session.lastTurnStats.usage.outputTokens == 8, "the generator stopped at the window's end")
    }

    @Test func maximumResponseTokensInsideTheWindowOnlyTruncates() throws {
        let engine = try EmbeddedEngineTests.engine.get()
        let session = LanguageModelSession(engine: engine, configuration: SessionConfiguration(
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 8), contextSize: 256))
        let response = try session.respond(to: Self.story)
        #expect(response.stats.truncated && response.stats.usage.outputTokens == 8)
    }

    @Test func partsAreCountedWithTheModelsTokenizer() throws {
        let engine = try EmbeddedEngineTests.engine.get()
        let plan = SessionPlan(configuration: SessionConfiguration(instructions: "You are a baker."), turns: [Self.story])
        let counts = try PromptTokenCounts(plan: plan, engine: engine)
        #expect(!counts.estimated)
        #expect(counts.instructions == engine.tokenizer.tokenize("You are a baker.").count)
        #expect(counts.prompt == engine.tokenizer.tokenize(Self.story).count)
        #expect(counts.prompt > 5 && counts.prompt < Self.story.utf8.count)
    }
}
