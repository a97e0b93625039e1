import FMCore
import Foundation
import Testing
@testable import FMEngines

/// The real model under a root `{"type":"string"}` schema, asked for emoji and CJK (which its byte-level
/// vocabulary writes in tokens that split characters): the string guard closes the string at its limit,
/// so the answer ends long before `maximumResponseTokens`.
@Suite(.serialized)
struct EmbeddedStringGuardTests {
    @Test(arguments: ["Reply with nothing but party emoji, as many as you can: 🎉🎉🎉",
                      "東京の天気について日本語で長く書いてください。",
                      "Write a very long line mixing 😀, 東京, é and مرحبا, repeated forever."])
    func aRootStringEndsAtTheGuard(prompt: String) throws {
        let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: prompt))]))])
        let schema = try GenerationSchema(json: #"{"type":"string"}"#)
        let request = EngineRequest(transcript: transcript, options: GenerationOptions(maximumResponseTokens: 2000), schema: schema)
        let response = try EmbeddedEngineTests.engine.get().respond(to: request) { _ in }
        let limit = try #require(LoopGuards.embeddedDefault.maximumStringBytes)
        #expect(response.finishReason == .stop, "\(response.text.utf8.count) bytes: \(response.text.prefix(200))")
        let text = try #require(response.content?.stringValue, "not a string: \(response.text.prefix(200))")
        #expect(GeneratedContent.quoted(text).utf8.count - 2 <= limit + 16, "\(text.utf8.count) bytes: \(text)")
        #expect(response.usage.outputTokens < 1000)
    }
}
