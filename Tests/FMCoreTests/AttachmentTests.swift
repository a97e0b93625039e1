import FMCore
import Foundation
import Testing
import TestSupport

/// A 1×1 PNG.
private let png = [UInt8](onePixelPNG)

private func promptWithImage(_ image: Transcript.ImageAttachment, label: String? = "receipt") -> Transcript {
    Transcript(entries: [.prompt(.init(id: "p", segments: [
        .text(.init(id: "t", content: "Total?")),
        .attachment(.init(id: "a", content: .image(image), label: label)),
    ]))])
}

@Test func anImageAttachmentRoundTripsWithItsBytesTypeAndLabel() throws {
    let transcript = promptWithImage(.init(url: "file:///tmp/receipt.png", contentType: "image/png", data: png))
    let text = transcript.jsonString
    let base64 = Data(png).base64EncodedString()
    #expect(text.contains(#"{"type":"attachment","id":"a","attachment":{"type":"image","label":"receipt","data":"data:image/png;base64,\#(base64)"}}"#),
            "Foundation Models 27's shape: the bytes as a data: URI, the source URL not kept")
    let legacy = transcript.converted(to: .fm26).jsonString
    #expect(legacy.contains(#"{"type":"attachment","id":"a","label":"receipt","content":{"image":{"url":"file:///tmp/receipt.png","contentType":"image/png","data":"\#(base64)"}}}"#))
    #expect(try Transcript(json: legacy) == transcript)
    var decoded = try Transcript(json: text)
    #expect(decoded.firstAttachment?.content.image?.url == nil)
    decoded = try Transcript(json: legacy)
    #expect(try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(transcript)).content == transcript.content)
    let image = try #require(decoded.firstAttachment?.content.image)
    #expect(image.byteCount == png.count)
    #expect(image.sha256 == SHA256.hex(of: png))
    #expect(image.dataURI == "data:image/png;base64," + Data(png).base64EncodedString())
}

@Test func anOlderURLOnlyAttachmentStillReads() throws {
    let text = #"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[{"id":"p","role":"user","contents":[{"type":"attachment","id":"a","url":"https://example.com/cat.png","label":"cat"}]}]}}"#
    let segment = try #require(try Transcript(json: text).firstAttachment)
    #expect(segment.label == "cat")
    #expect(segment.content.image == Transcript.ImageAttachment(url: "https://example.com/cat.png"))
    #expect(segment.content.image?.sha256 == nil)
}

@Test func badAttachmentJSONNamesItsPath() throws {
    let base = #"{"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[{"id":"p","role":"user","contents":[{"type":"attachment","id":"a","content":CONTENT}]}]}}"#
    let badData = base.replacingOccurrences(of: "CONTENT", with: #"{"image":{"data":"not base64!"}}"#)
    let error = try #require(throws: JSONFormatError.self) { try Transcript(json: badData) }
    #expect(error.path == "/transcript/entries/0/contents/0/content/image/data")
    let badKind = base.replacingOccurrences(of: "CONTENT", with: #"{"video":{}}"#)
    #expect(throws: JSONFormatError.self) { try Transcript(json: badKind) }
}

@Test func imageTypesAreRecognisedByTheirFirstBytes() {
    #expect(Transcript.ImageAttachment.contentType(of: png) == "image/png")
    #expect(Transcript.ImageAttachment.contentType(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
    #expect(Transcript.ImageAttachment.contentType(of: Array("GIF89a....".utf8)) == "image/gif")
    #expect(Transcript.ImageAttachment.contentType(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
    #expect(Transcript.ImageAttachment.contentType(of: Array("<svg></svg>".utf8)) == nil)
}

@Test func anEngineWithoutImageInputRefusesAttachmentsAsUnsupportedCapability() {
    let textOnly = EngineCapabilities(guidedGeneration: true, toolCalling: true, streaming: true, imageInput: false)
    let request = EngineRequest(transcript: promptWithImage(.init(contentType: "image/png", data: png)))
    #expect(textOnly.missing(for: request)?.hasPrefix("imageInput (the prompt attaches image 'receipt'") == true)
    #expect(EngineCapabilities.all.missing(for: request) == nil)
    #expect(textOnly.missing(for: EngineRequest(transcript: Transcript())) == nil)
}
