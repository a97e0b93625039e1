import FMCore
import Foundation
import Testing
import TestSupport
@testable import FMSuite

/// A 1×1 PNG.
private let png = onePixelPNG

/// A folder with `a.png`, `b.png` and the suite `text`; returns the load result.
private func loadWithImages(_ text: String) throws -> (suite: Suite?, diagnostics: [Diagnostic]) {
    let folder = try makeFolder(["s.yaml": text])
    try png.write(to: folder.appendingPathComponent("a.png"))
    try png.write(to: folder.appendingPathComponent("b.png"))
    return SuiteLoader.load(file: folder.appendingPathComponent("s.yaml").path)
}

@Test func imagesAreReadBesideTheSuiteAndAttachedToTheFirstPromptInOrder() throws {
    let (suite, diagnostics) = try loadWithImages("""
    suite: s
    engine: scripted
    cases:
      - id: two
        turns: [Compare these., And now?]
        images: [ { file: a.png, label: left }, { file: b.png } ]
        script: [ { text: same }, { text: still } ]
    """)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let item = try #require(suite?.expanded().first)
    #expect(item.attachments.map(\.label) == ["left", nil])
    #expect(item.attachments.map { $0.content.image?.contentType } == ["image/png", "image/png"])
    #expect(item.attachments.first?.content.image?.data == [UInt8](png))
    let encoded = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
    #expect(encoded.contains(#""sha256":"\#(SHA256.hex(of: [UInt8](png)))""#), "validate --json and the definition hash see the image by content")
    #expect(!encoded.contains("a.png"), "not by path")
}

@Test func badImageEntriesAreLocated() throws {
    let (_, diagnostics) = try loadWithImages("""
    suite: s
    cases:
      - id: bad
        prompt: Look.
        images: [ { file: a.png, label: x }, { file: b.png, label: x }, { label: y }, { file: a.png, size: 3 } ]
      - id: scalar
        prompt: Look.
        images: a.png
    """)
    let lines = diagnostics.map(\.description)
    #expect(lines.contains { $0.hasSuffix("s.yaml:5:64: error: duplicate image label 'x'; labels name one image each") }, "\(lines)")
    #expect(lines.contains { $0.contains("s.yaml:5:69: error: an image needs 'file'") }, "\(lines)")
    #expect(lines.contains { $0.contains("unknown key 'size'") }, "\(lines)")
    #expect(lines.contains { $0.contains("s.yaml:8:13: error: images must be a list of {file: PATH, label: TEXT}") }, "\(lines)")
}
