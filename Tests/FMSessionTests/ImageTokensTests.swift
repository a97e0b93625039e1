import Foundation
import Testing
import FMCore
import FMSession
@testable import FMEngines

/// Images cost context-window tokens of their own (`imageTokens` each), not their label's text.

private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]

private func image(_ id: String) -> Transcript.AttachmentSegment {
    .init(id: id, content: .image(.init(contentType: "image/png", data: png)), label: "a very long label that would be many tokens of text")
}

@Test func imagesThatDoNotFitTheWindowAreContextSizeExceeded() throws {
    var configuration = SessionConfiguration(contextSize: 1200)
    configuration.imageTokens = 576
    let one = scriptedSession([.text("One photo.")], configuration: configuration)
    #expect(try one.respond(to: "Describe", attachments: [image("a")]).text == "One photo.")
    let three = scriptedSession([.text("Three photos.")], configuration: configuration)
    do {
        _ = try three.respond(to: "Describe", attachments: [image("a"), image("b"), image("c")])
        Issue.record("three images at 576 tokens cannot fit a 1200-token window")
    } catch let error as LanguageModelError {
        #expect(error.caseName == "contextSizeExceeded")
        #expect(error.description.contains("1728 of them for 3 images at imageTokens 576 each"), "\(error)")
        #expect(error.description.contains("attach fewer images"), "\(error)")
    }
    #expect(three.lastTurnStats.engineCalls == 0, "the prompt did not fit, so the engine never ran")
}

@Test func anImageIsNotItsLabelsText() throws {
    var configuration = SessionConfiguration(contextSize: 4096)
    configuration.imageTokens = 0
    let request = EngineRequest(transcript: Transcript(entries: [.prompt(.init(id: "p", segments: [
        .text(.init(id: "t", content: "Hi")), .attachment(image("a")),
    ]))]))
    #expect(request.estimatedPromptTokens == TokenEstimate.count("Hi"))
    #expect(request.transcript.imageCount == 1)
    let session = scriptedSession([.text("Ok.")], configuration: configuration)
    #expect(try session.respond(to: "Hi", attachments: [image("a")]).text == "Ok.")
}
