import Foundation

extension Transcript {
    /// The number of attachment segments (images) over every entry.
    public var imageCount: Int {
        entries.reduce(0) { count, entry in
            count + Self.segments(of: entry).filter { if case .attachment = $0 { return true } else { return false } }.count
        }
    }

    /// The segments of `entry` (none for a tool-calls entry).
    static func segments(of entry: Entry) -> [Segment] {
        switch entry {
        case .instructions(let instructions): return instructions.segments
        case .prompt(let prompt): return prompt.segments
        case .response(let response): return response.segments
        case .reasoning(let reasoning): return reasoning.segments
        case .toolOutput(let output): return output.segments
        case .toolCalls: return []
        }
    }

    /// The first attachment segment of any entry, if there is one.
    public var firstAttachment: AttachmentSegment? {
        for entry in entries {
            for case .attachment(let attachment) in Self.segments(of: entry) { return attachment }
        }
        return nil
    }

    /// What an attachment segment carries (Apple's `Transcript.Attachment`; images are the one kind here).
    public enum Attachment: Hashable, Sendable {
        /// An attached image.
        case image(ImageAttachment)

        /// The image's URL, else a description of its bytes.
        public var summary: String {
            switch self {
            case .image(let image): return image.url ?? "\(image.contentType ?? "image"), \(image.data?.count ?? 0) bytes"
            }
        }

        /// The image, when this is one.
        public var image: ImageAttachment? {
            switch self {
            case .image(let image): return image
            }
        }
    }

    /// An attached image (Apple's `Transcript.ImageAttachment`): where it came from and, when it was read,
    /// its bytes and media type. A transcript recorded with only a URL has no bytes.
    public struct ImageAttachment: Hashable, Sendable {
        /// The image's original location (a file or https URL), when it has one.
        public var url: String?
        /// The media type of `data` (`image/png`, `image/jpeg`, `image/gif`, `image/webp`).
        public var contentType: String?
        /// The image file's bytes.
        public var data: [UInt8]?

        /// Creates an image attachment.
        public init(url: String? = nil, contentType: String? = nil, data: [UInt8]? = nil) {
            self.url = url
            self.contentType = contentType
            self.data = data
        }

        /// The media types recognised from an image file's first bytes.
        public static let supportedContentTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"]

        /// The media type of image `bytes` by their signature; nil when they are none of `supportedContentTypes`.
        public static func contentType(of bytes: [UInt8]) -> String? {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
            if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
            if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
            return nil
        }

        /// The number of bytes, when they are known.
        public var byteCount: Int? { data?.count }

        /// The lowercase hex SHA-256 of the bytes, when they are known.
        public var sha256: String? { data.map { SHA256.hex(of: $0) } }

        /// A `data:` URI of the image (media type and base64 bytes), when its bytes are known.
        public var dataURI: String? {
            guard let data else { return nil }
            return "data:\(contentType ?? "application/octet-stream");base64,\(Data(data).base64EncodedString())"
        }
    }
}
