import FMCore
import FMEvaluate
import Foundation
import Testing
import TestSupport
@testable import FMReport
@testable import FMResults

/// A 1×1 PNG.
private let png = [UInt8](onePixelPNG)

/// A run of one case whose prompt attaches `image` labelled `label`.
private func runWithImage(_ image: Transcript.ImageAttachment, label: String?) -> RunResult {
    var attempt = sampleAttempt(0, .passed)
    attempt.transcript = Transcript(entries: [
        .prompt(.init(id: "p", segments: [.text(.init(id: "t", content: "Total?")), .attachment(.init(id: "a", content: .image(image), label: label))])),
        .response(.init(id: "r", segments: [.text(.init(id: "r1", content: "12.50"))])),
    ])
    var item = sampleCase("receipts", "total", [.passed])
    item.attempts = [attempt]
    return RunResult(run: sampleInfo(), cases: [item])
}

@Test func aRecordedImageRoundTripsThroughTheResultsFileAndRendersAsAThumbnail() throws {
    let run = runWithImage(.init(url: "file:///cases/receipt.png", contentType: "image/png", data: png), label: "receipt")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fmeval-image-\(UUID().uuidString).json").path
    try ResultsFile.write(run, to: path)
    let loaded = try ResultsFile.load(path)
    #expect(loaded.cases[0].attempts[0].transcript.content == run.cases[0].attempts[0].transcript.content)
    #expect(loaded.cases[0].attempts[0].transcript.firstAttachment?.content.image?.url == nil,
            "Foundation Models 27's image shape carries the bytes, not the file's URL")
    let html = HTMLReport.render(loaded)
    #expect(html.contains(#"<figure class="attachment"><img class="thumb" src="data:image/png;base64,\#(Data(png).base64EncodedString())" alt="receipt">"#))
    #expect(html.contains("<b>receipt</b> image/png · \(png.count) bytes"))
    #expect(html.contains("sha256 <code>\(SHA256.hex(of: png))</code>"))
    #expect(HTMLStyle.contentSecurityPolicy.contains("img-src data:"))
}

@Test func bytesThatAreNoImageAreDescribedNotShown() {
    let hostile = Array("<svg onload=alert(1)>".utf8)
    let html = HTMLReport.render(runWithImage(.init(contentType: "image/svg+xml", data: hostile), label: "<b>x</b>"))
    #expect(!html.contains("<img class=\"thumb\""))
    #expect(html.contains("<b>&lt;b&gt;x&lt;/b&gt;</b> image/svg+xml · \(hostile.count) bytes"))
    #expect(!html.contains("<svg onload"))
}

@Test func anAttachmentRecordedByURLAloneShowsItsURL() {
    let html = HTMLReport.render(runWithImage(.init(url: "https://example.com/cat.png"), label: nil))
    #expect(html.contains(#"<figure class="attachment"><figcaption class="muted">attachment https://example.com/cat.png</figcaption></figure>"#))
}
