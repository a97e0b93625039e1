import FaultServer
import Foundation
import Testing
import TestSupport

/// Image attachments end to end: a suite's `images:` read beside the suite, sent by the openai engine as
/// image content parts, refused by the text-only embedded engine with Foundation Models'
/// `unsupportedCapability`, located errors for bad files, and thumbnails in the HTML report.
@Suite struct ImageCLITests {
    /// A 1×1 PNG.
    static let png = onePixelPNG

    static let suite = """
    suite: receipts
    cases:
      - id: total
        prompt: What is the total on this receipt?
        images:
          - { file: images/receipt.png, label: receipt }
        expect: { contains: "12.50" }
    """

    /// A folder holding the suite and its image.
    func writeSuite(_ text: String = suite) throws -> (URL, String) {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Self.png.write(to: folder.appendingPathComponent("images/receipt.png"))
        let path = folder.appendingPathComponent("receipts.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    @Test func theOpenAIEngineSendsTheImageAsAContentPartAndTheReportShowsIt() throws {
        let server = try FaultServer { _ in .respond(status: 200, body: OpenAICLITests.completion("The total is 12.50.")) }
        defer { server.stop() }
        let (folder, path) = try writeSuite()
        let (run, results) = try runSuite([path, "--engine", "openai", "--base-url", server.baseURL, "--model", "vision"], in: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try #require(results).statuses == ["total": "passed"])

        let sent = try #require(server.requests.first)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(sent.body.utf8)) as? [String: Any])
        let user = try #require((body["messages"] as? [[String: Any]])?.last)
        #expect(user["role"] as? String == "user")
        let parts = try #require(user["content"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["text", "text", "image_url"])
        #expect(parts[0]["text"] as? String == "What is the total on this receipt?")
        #expect(parts[1]["text"] as? String == "Image 'receipt':")
        let url = (parts[2]["image_url"] as? [String: Any])?["url"] as? String
        #expect(url == "data:image/png;base64," + Self.png.base64EncodedString())

        let attempt = try #require(try results?.attempts("total").first)
        let transcript = try #require(attempt["transcript"] as? [String: Any])
        let entries = try #require((transcript["transcript"] as? [String: Any])?["entries"] as? [[String: Any]])
        let segment = try #require((entries.first { $0["role"] as? String == "user" }?["contents"] as? [[String: Any]])?.last)
        // A new transcript is written in Foundation Models 27's shape (docs/results-format.md).
        #expect(segment["type"] as? String == "attachment")
        let image = try #require(segment["attachment"] as? [String: Any])
        #expect(image["type"] as? String == "image")
        #expect(image["label"] as? String == "receipt")
        #expect(image["data"] as? String == "data:image/png;base64," + Self.png.base64EncodedString())

        let recorded = folder.appendingPathComponent("transcript.json")
        try JSONSerialization.data(withJSONObject: transcript).write(to: recorded)
        let inspect = try runFMEval(["transcript", "inspect", recorded.path])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains(#"attachment "receipt" inline (image/png, "#)
                    && inspect.stdout.contains("(image/png, \(Self.png.count) bytes, sha256 "),
                "\(inspect.stdout)")

        let html = folder.appendingPathComponent("report.html").path
        let report = try runFMEval(["report", folder.appendingPathComponent("results.json").path, "--html", html])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(#"<img class="thumb" src="data:image/png;base64,\#(Self.png.base64EncodedString())" alt="receipt">"#))
        #expect(page.contains("<b>receipt</b>"))
        #expect(page.contains("\(Self.png.count) bytes"))
        #expect(page.contains("img-src data:"), "the CSP allows the thumbnail")
    }

    @Test func theTextOnlyEmbeddedEngineEndsTheAttemptWithUnsupportedCapability() throws {
        let (folder, path) = try writeSuite()
        let (run, results) = try runSuite([path, "--engine", "embedded"], in: folder)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        let document = try #require(results)
        #expect(document.statuses == ["total": "error"])
        let error = try document.error("total")
        #expect(error["domain"] as? String == "LanguageModelError")
        #expect(error["caseName"] as? String == "unsupportedCapability")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("imageInput") && message.contains("image 'receipt'") && message.contains("never drops"), "\(message)")
    }

    @Test func missingAndNonImageFilesAreLocatedErrors() throws {
        let (folder, _) = try writeSuite()
        let missing = folder.appendingPathComponent("missing.yaml").path
        try Self.suite.replacingOccurrences(of: "images/receipt.png", with: "images/nope.png").write(toFile: missing, atomically: true, encoding: .utf8)
        let first = try runFMEval(["validate", missing])
        #expect(first.status == 2)
        #expect(first.stderr.contains("missing.yaml:6:17: error: image file 'images/nope.png' not found"), "\(first.stderr)")

        try "just text".write(to: folder.appendingPathComponent("images/notes.png"), atomically: true, encoding: .utf8)
        let text = folder.appendingPathComponent("text.yaml").path
        try Self.suite.replacingOccurrences(of: "images/receipt.png", with: "images/notes.png").write(toFile: text, atomically: true, encoding: .utf8)
        let second = try runFMEval(["validate", text])
        #expect(second.status == 2)
        #expect(second.stderr.contains("text.yaml:6:17: error: image file 'images/notes.png' is not a PNG, JPEG, GIF or WebP image"), "\(second.stderr)")
    }
}
