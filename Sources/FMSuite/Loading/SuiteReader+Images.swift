import Foundation
import FMCore

extension SuiteReader {
    /// The largest image file a case may attach (20 MiB): results and reports carry the bytes.
    static let maximumImageBytes = 20 << 20

    /// `images: [{file: PATH, label: TEXT}, …]` — image files (PNG, JPEG, GIF, WebP) read relative to the
    /// suite, attached to the case's prompt after its text. A missing, unreadable, oversized or
    /// non-image file is reported at its `file:` value.
    func images(_ node: YAMLNode) -> [Transcript.AttachmentSegment] {
        guard let items = node.sequence else {
            report(node, "images must be a list of {file: PATH, label: TEXT}")
            return []
        }
        var found: [Transcript.AttachmentSegment] = []
        for (index, item) in items.enumerated() {
            guard let keys = mapping(item, "an image", allowed: ["file", "label"]) else { continue }
            let label = keys["label"].flatMap { text($0, "image label") }
            guard let fileNode = keys["file"] else {
                report(item, "an image needs 'file' (a PNG, JPEG, GIF or WebP file, relative to the suite)")
                continue
            }
            guard let path = text(fileNode, "image file"), let url = readableFile(path, at: fileNode, what: "image") else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                report(fileNode, "image file '\(path)' cannot be read; check its permissions")
                continue
            }
            guard data.count <= SuiteReader.maximumImageBytes else {
                report(fileNode, "image file '\(path)' is \(data.count) bytes; attach at most \(SuiteReader.maximumImageBytes) bytes (scale it down)")
                continue
            }
            let bytes = [UInt8](data)
            guard let type = Transcript.ImageAttachment.contentType(of: bytes) else {
                report(fileNode, "image file '\(path)' is not a PNG, JPEG, GIF or WebP image (by its first bytes); convert it to one of those")
                continue
            }
            if let label, found.contains(where: { $0.label == label }) {
                report(keys["label"] ?? item, "duplicate image label '\(label)'; labels name one image each")
                continue
            }
            found.append(Transcript.AttachmentSegment(
                id: "image-\(index)", content: .image(Transcript.ImageAttachment(url: url.absoluteString, contentType: type, data: bytes)), label: label))
        }
        return found
    }
}
