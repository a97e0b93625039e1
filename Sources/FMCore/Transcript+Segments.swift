import Foundation

extension Transcript {
    /// The JSON shapes of an image segment.
    public enum AttachmentForm: String, Hashable, Sendable {
        /// Foundation Models 27, a plain image: `{"type": "image", "id", "image": "data:image/…;base64,…"}`.
        case image
        /// Foundation Models 27, a labelled attachment (the `fm` tool writes it when a tool may read the image):
        /// `{"type": "attachment", "id", "attachment": {"type": "image", "label", "data": "data:…"}}`.
        case attachment
        /// fmeval's earlier, guessed shape, still read: `{"type": "attachment", "id", "label",
        /// "content": {"image": {"url", "contentType", "data": BASE64}}}` or `{…, "url"}`.
        case legacy
    }

    static func segment(_ content: GeneratedContent, at path: String) throws -> Segment {
        let reader = try ObjectReader(content, at: path, what: "a segment")
        let type = try reader.string("type", "the segment type: text, structure, image or attachment")
        let id = try reader.string("id", "the segment's identifier")
        switch type {
        case "text":
            var text = TextSegment(id: id, content: try reader.string("text", "the segment's text"))
            text.additionalFields = reader.members(except: ["type", "id", "text"])
            return .text(text)
        case "structure":
            let structure = try ObjectReader(try reader.required("structure", "the source and content"), at: reader.path("structure"),
                                             what: "a structure")
            var segment = StructuredSegment(id: id, source: try structure.string("source", "the generated type's name"),
                                            content: try structure.required("content", "the generated value"))
            segment.additionalFields = reader.members(except: ["type", "id", "structure"])
            segment.structureFields = structure.members(except: ["source", "content"])
            return .structure(segment)
        case "image":
            let uri = try reader.string("image", "the image as a data: URI (data:image/jpeg;base64,…)")
            var segment = AttachmentSegment(id: id, content: .image(try image(fromURI: uri, at: reader.path("image"))))
            segment.form = .image
            segment.additionalFields = reader.members(except: ["type", "id", "image"])
            return .attachment(segment)
        case "attachment":
            if let inner = reader.optional("attachment") { return .attachment(try attachment(inner, id: id, segment: reader)) }
            return .attachment(try legacyAttachment(reader, id: id))
        default:
            throw JSONFormatError(path: reader.path("type"), message: "unknown segment type \"\(type)\"; expected text, structure, "
                + "image or attachment (the segment shapes of Foundation Models 26 and 27)")
        }
    }

    /// Foundation Models 27's `{"type": "attachment", "attachment": {"type": "image", "label", "data"}}`.
    private static func attachment(_ content: GeneratedContent, id: String, segment: ObjectReader) throws -> AttachmentSegment {
        let reader = try ObjectReader(content, at: segment.path("attachment"), what: "an attachment")
        let kind = try reader.string("type", "the attachment's kind, \"image\"")
        guard kind == "image" else {
            throw JSONFormatError(path: reader.path("type"), message: "unknown attachment type \"\(kind)\"; images are the one kind understood")
        }
        let uri = try reader.string("data", "the image as a data: URI (data:image/jpeg;base64,…)")
        var attachment = AttachmentSegment(id: id, content: .image(try image(fromURI: uri, at: reader.path("data"))),
                                           label: try reader.optionalString("label", "the attachment's label"))
        attachment.form = .attachment
        attachment.additionalFields = segment.members(except: ["type", "id", "attachment"])
        attachment.attachmentFields = reader.members(except: ["type", "label", "data"])
        return attachment
    }

    /// fmeval's earlier shape: `label` and `content.image` (`url`, `contentType`, base64 `data`), or `url` alone.
    private static func legacyAttachment(_ reader: ObjectReader, id: String) throws -> AttachmentSegment {
        let label = try reader.optionalString("label", "the attachment's label")
        var segment: AttachmentSegment
        if let content = reader.optional("content") {
            segment = AttachmentSegment(id: id, content: try legacyContent(content, at: reader.path("content")), label: label)
        } else {
            segment = AttachmentSegment(id: id, url: try reader.string("url",
                "the attachment (Foundation Models 27: \"attachment\": {\"type\": \"image\", \"label\", \"data\"}) "
                + "or, in fmeval's earlier files, \"content\" or \"url\""), label: label)
        }
        segment.form = .legacy
        segment.additionalFields = reader.members(except: ["type", "id", "content", "label", "url"])
        return segment
    }

    /// `{"image": {"url": …, "contentType": …, "data": BASE64}}`, every member of the image optional.
    private static func legacyContent(_ content: GeneratedContent, at path: String) throws -> Attachment {
        let reader = try ObjectReader(content, at: path, what: "an attachment's content")
        try reader.rejectUnknownKeys(["image"], in: "an attachment's content (images are the one kind)")
        let image = try ObjectReader(try reader.required("image", "the attached image"), at: reader.path("image"), what: "an image attachment")
        try image.rejectUnknownKeys(["url", "contentType", "data"], in: "an image attachment")
        var bytes: [UInt8]?
        if let base64 = try image.optionalString("data", "the image's bytes in base64") {
            guard let data = Data(base64Encoded: base64) else {
                throw JSONFormatError(path: image.path("data"), message: "the image's data is not valid base64")
            }
            bytes = [UInt8](data)
        }
        return .image(ImageAttachment(url: try image.optionalString("url", "the image's URL"),
                                      contentType: try image.optionalString("contentType", "the image's media type"), data: bytes))
    }

    /// An image from a `data:MEDIA-TYPE;base64,BYTES` URI; any other string is kept as the image's URL.
    private static func image(fromURI uri: String, at path: String) throws -> ImageAttachment {
        guard uri.hasPrefix("data:") else { return ImageAttachment(url: uri) }
        guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64") else {
            throw JSONFormatError(path: path, message: "expected a base64 data: URI (data:image/jpeg;base64,…), as Foundation Models 27 writes")
        }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma].dropLast(";base64".count)
        guard let data = Data(base64Encoded: String(uri[uri.index(after: comma)...])) else {
            throw JSONFormatError(path: path, message: "the image's data: URI does not hold valid base64")
        }
        return ImageAttachment(contentType: header.isEmpty ? nil : String(header), data: [UInt8](data))
    }

    static func responseFormat(_ content: GeneratedContent, at path: String) throws -> ResponseFormat {
        let reader = try ObjectReader(content, at: path, what: "a response format")
        let type = try reader.string("type", "the response format type, \"jsonSchema\"")
        guard type == "jsonSchema" else {
            throw JSONFormatError(path: reader.path("type"), message: "unknown response format type \"\(type)\"; expected \"jsonSchema\"")
        }
        let inner = try ObjectReader(try reader.required("jsonSchema", "the name and schema"), at: reader.path("jsonSchema"),
                                     what: "a JSON schema response format")
        let name = try inner.string("name", "the type name")
        let schema = try inner.required("schema", "the generation schema")
        var format = ResponseFormat(name: name, schema: try GenerationSchema(content: schema, at: inner.path("schema")))
        format.additionalFields = reader.members(except: ["type", "jsonSchema"])
        format.jsonSchemaFields = inner.members(except: ["name", "schema"])
        return format
    }

    static func content(of format: ResponseFormat) -> GeneratedContent {
        GeneratedContent(properties: [
            ("type", "jsonSchema"),
            ("jsonSchema", GeneratedContent(properties: [("name", GeneratedContent(format.name)), ("schema", format.schema.content)]
                + sortedMembers(format.jsonSchemaFields))),
        ] + sortedMembers(format.additionalFields))
    }

    static func content(of segments: [Segment], in dialect: Dialect) -> GeneratedContent {
        GeneratedContent(segments.map { segment -> GeneratedContent in
            switch segment {
            case .text(let text):
                return GeneratedContent(properties: [("type", "text"), ("id", GeneratedContent(text.id)), ("text", GeneratedContent(text.content))]
                    + sortedMembers(text.additionalFields))
            case .structure(let structure):
                return GeneratedContent(properties: [("type", "structure"), ("id", GeneratedContent(structure.id)),
                    ("structure", GeneratedContent(properties: [("source", GeneratedContent(structure.source)), ("content", structure.content)]
                        + sortedMembers(structure.structureFields)))]
                    + sortedMembers(structure.additionalFields))
            case .attachment(let attachment):
                return content(of: attachment, in: dialect)
            }
        })
    }

    /// The form an attachment is written in: its own, else Foundation Models 27's (`attachment` when it has a
    /// label, `image` otherwise) in that dialect when its bytes are known, else fmeval's earlier shape.
    static func form(of attachment: AttachmentSegment, in dialect: Dialect) -> AttachmentForm {
        if let form = attachment.form { return form }
        guard dialect == .fm27, attachment.content.image?.data != nil else { return .legacy }
        return attachment.label == nil ? .image : .attachment
    }

    private static func content(of attachment: AttachmentSegment, in dialect: Dialect) -> GeneratedContent {
        let image = attachment.content.image
        let uri = GeneratedContent(image?.dataURI ?? image?.url ?? "")
        var members: [(String, GeneratedContent)]
        switch form(of: attachment, in: dialect) {
        case .image:
            members = [("type", "image"), ("id", GeneratedContent(attachment.id)), ("image", uri)]
        case .attachment:
            let inner: [(String, GeneratedContent)] = [("type", "image")]
                + (attachment.label.map { [("label", GeneratedContent($0))] } ?? []) + [("data", uri)]
            members = [("type", "attachment"), ("id", GeneratedContent(attachment.id)),
                       ("attachment", GeneratedContent(properties: inner + sortedMembers(attachment.attachmentFields)))]
        case .legacy:
            members = [("type", "attachment"), ("id", GeneratedContent(attachment.id))]
            if let label = attachment.label { members.append(("label", GeneratedContent(label))) }
            members.append(("content", legacyContent(of: attachment.content)))
        }
        return GeneratedContent(properties: members + sortedMembers(attachment.additionalFields))
    }

    private static func legacyContent(of attachment: Attachment) -> GeneratedContent {
        switch attachment {
        case .image(let image):
            var members: [(String, GeneratedContent)] = []
            if let url = image.url { members.append(("url", GeneratedContent(url))) }
            if let type = image.contentType { members.append(("contentType", GeneratedContent(type))) }
            if let data = image.data { members.append(("data", GeneratedContent(Data(data).base64EncodedString()))) }
            return GeneratedContent(properties: [("image", GeneratedContent(properties: members))])
        }
    }
}
