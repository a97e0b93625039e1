import FMCore
import FMResults

/// Renders a `Transcript` as a conversation: instructions (with tool definitions), prompts (with the
/// requested response format and the generation options), reasoning, tool calls with arguments, tool
/// outputs and responses (with the model assets), with structured content pretty-printed; members a
/// recorded transcript carries beyond those (`metadata`, usage) are shown as JSON. Everything is escaped text.
enum HTMLTranscript {
    /// Rendered instructions entries, reused across the attempts and cases of one report: every
    /// attempt of a suite usually starts with the same instructions and tool schemas, and
    /// pretty-printing those schemas was the largest cost of a 10,000-case report.
    final class Cache {
        /// Markup per distinct instructions entry.
        var instructions: [Transcript.Instructions: String] = [:]

        /// An empty cache.
        init() {}
    }

    /// Writes every entry of `transcript`, reusing `cache` for instructions seen before.
    static func write(_ transcript: Transcript, cache: Cache, into page: inout HTMLBuffer) {
        for entry in transcript.entries {
            switch entry {
            case .instructions(let instructions):
                if let markup = cache.instructions[instructions] {
                    page.raw(markup)
                    continue
                }
                var entryPage = HTMLBuffer(capacity: 1024)
                open("instructions", "instructions", into: &entryPage)
                writeSegments(instructions.segments, into: &entryPage)
                for tool in instructions.toolDefinitions {
                    entryPage.raw("<div class=\"muted\">tool <code>")
                    entryPage.text(tool.name)
                    entryPage.raw("</code> — ")
                    entryPage.text(tool.description)
                    entryPage.raw("</div>")
                    entryPage.element("pre", tool.parameters.content.jsonString(indent: 2))
                }
                writeRecordedFields(instructions.additionalFields, into: &entryPage)
                entryPage.raw("</div>\n")
                cache.instructions[instructions] = entryPage.html
                page.raw(entryPage.html)
                continue
            case .prompt(let prompt):
                open("prompt", "prompt", into: &page)
                writeSegments(prompt.segments, into: &page)
                if let format = prompt.responseFormat {
                    page.raw("<div class=\"muted\">response format <code>")
                    page.text(format.name)
                    page.raw("</code></div>")
                    page.element("pre", format.schema.content.jsonString(indent: 2))
                }
                if prompt.options != GenerationOptions() {
                    page.raw("<div class=\"muted\">options <code>")
                    page.text(prompt.options.content.jsonString)
                    page.raw("</code></div>")
                }
            case .reasoning(let reasoning):
                open("reasoning", "reasoning", into: &page)
                writeSegments(reasoning.segments, into: &page)
            case .toolCalls(let toolCalls):
                open("toolCalls", "tool calls", into: &page)
                for call in toolCalls.calls {
                    page.raw("<div><code>")
                    page.text(call.name)
                    page.raw("</code> <span class=\"muted mono\">")
                    page.text(call.id)
                    page.raw("</span></div>")
                    page.element("pre", call.arguments.jsonString(indent: 2))
                }
            case .toolOutput(let output):
                open("toolOutput", "tool output", into: &page)
                page.raw("<div><code>")
                page.text(output.toolName)
                page.raw("</code></div>")
                writeSegments(output.segments, into: &page)
            case .response(let response):
                open("response", "response", into: &page)
                writeSegments(response.segments, into: &page)
                if !response.assetIDs.isEmpty {
                    page.raw("<div class=\"muted\">assets ")
                    page.text(response.assetIDs.joined(separator: ", "))
                    page.raw("</div>")
                }
            }
            writeRecordedFields(entry.additionalFields, into: &page)
            page.raw("</div>\n")
        }
    }

    /// The recorded transcripts a run scored, with their SHA-256s, under the run line.
    static func writeRecordedSources(_ sources: [RecordedSource], into page: inout HTMLBuffer) {
        guard !sources.isEmpty else { return }
        page.raw("<details class=\"meta\"><summary>")
        page.text("Scored from \(sources.count) recorded transcript\(sources.count == 1 ? "" : "s") (no model ran for them)")
        page.raw("</summary><ul>")
        for source in sources {
            page.raw("<li><code>")
            page.text(source.path)
            page.raw("</code> <span class=\"muted mono\">sha256 ")
            page.text(source.sha256)
            if let wrapper = source.sessionFile {
                page.text(" · fm session file " + GeneratedContent(properties: wrapper.keys.sorted().map { ($0, wrapper[$0]!) }).jsonString)
            }
            page.raw("</span></li>")
        }
        page.raw("</ul></details>\n")
    }

    /// Members of a recorded entry that fmeval does not model (`metadata`, usage, later keys), as JSON.
    private static func writeRecordedFields(_ fields: [String: GeneratedContent], into page: inout HTMLBuffer) {
        guard !fields.isEmpty else { return }
        page.raw("<div class=\"muted\">recorded ")
        page.text(fields.keys.sorted().joined(separator: ", "))
        page.raw("</div>")
        page.element("pre", GeneratedContent(properties: fields.keys.sorted().map { ($0, fields[$0]!) }).jsonString(indent: 2))
    }

    private static func open(_ kind: String, _ label: String, into page: inout HTMLBuffer) {
        page.raw("<div class=\"entry \(kind)\"><div class=\"role\">\(label)</div>")
    }

    private static func writeSegments(_ segments: [Transcript.Segment], into page: inout HTMLBuffer) {
        for segment in segments {
            switch segment {
            case .text(let text):
                page.element("pre", text.content)
            case .structure(let structure):
                page.raw("<div class=\"muted\">structure <code>")
                page.text(structure.source)
                page.raw("</code></div>")
                page.element("pre", structure.content.jsonString(indent: 2))
            case .attachment(let attachment):
                writeAttachment(attachment, into: &page)
            }
        }
    }

    /// An attachment as a small inline thumbnail (a `data:` URI, which the report's CSP allows as `img-src
    /// data:`) with its label, media type, size and SHA-256. Only bytes that really are PNG, JPEG, GIF or
    /// WebP become an image; others (and attachments recorded by URL alone) are described in text.
    static func writeAttachment(_ attachment: Transcript.AttachmentSegment, into page: inout HTMLBuffer) {
        let image = attachment.content.image
        page.open("figure", cls: "attachment")
        if let data = image?.data, let type = Transcript.ImageAttachment.contentType(of: data) {
            let uri = Transcript.ImageAttachment(contentType: type, data: data).dataURI ?? ""
            page.open("img", cls: "thumb", [("src", uri), ("alt", attachment.label ?? "attached image")])
        }
        page.open("figcaption", cls: "muted")
        page.raw("attachment ")
        if let label = attachment.label {
            page.raw("<b>")
            page.text(label)
            page.raw("</b> ")
        }
        var facts: [String] = []
        if let type = image?.contentType { facts.append(type) }
        if let count = image?.byteCount { facts.append("\(count) bytes") }
        if let url = image?.url { facts.append(url) }
        page.text(facts.joined(separator: " · "))
        if let digest = image?.sha256 {
            page.raw("<br>sha256 <code>")
            page.text(digest)
            page.raw("</code>")
        }
        page.close("figcaption")
        page.close("figure")
    }
}

extension Transcript.Entry {
    /// The entry's members that fmeval does not model, as recorded (an instructions entry writes its
    /// own inside its cached markup, so none here).
    fileprivate var additionalFields: [String: GeneratedContent] {
        switch self {
        case .instructions: return [:]
        case .prompt(let entry): return entry.additionalFields
        case .response(let entry): return entry.additionalFields
        case .reasoning(let entry): return entry.additionalFields
        case .toolCalls(let entry): return entry.additionalFields
        case .toolOutput(let entry): return entry.additionalFields
        }
    }
}
