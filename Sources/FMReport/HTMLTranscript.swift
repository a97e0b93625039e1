import FMCore

/// Renders a `Transcript` as a conversation: instructions (with tool definitions), prompts (with the
/// requested response format), reasoning, tool calls with arguments, tool outputs and responses, with
/// structured content pretty-printed. Everything is escaped text.
enum HTMLTranscript {
    /// Writes every entry of `transcript`.
    static func write(_ transcript: Transcript, into page: inout HTMLBuffer) {
        for entry in transcript.entries {
            switch entry {
            case .instructions(let instructions):
                open("instructions", "instructions", into: &page)
                writeSegments(instructions.segments, into: &page)
                for tool in instructions.toolDefinitions {
                    page.raw("<div class=\"muted\">tool <code>")
                    page.text(tool.name)
                    page.raw("</code> — ")
                    page.text(tool.description)
                    page.raw("</div>")
                    page.element("pre", tool.parameters.content.jsonString(indent: 2))
                }
            case .prompt(let prompt):
                open("prompt", "prompt", into: &page)
                writeSegments(prompt.segments, into: &page)
                if let format = prompt.responseFormat {
                    page.raw("<div class=\"muted\">response format <code>")
                    page.text(format.name)
                    page.raw("</code></div>")
                    page.element("pre", format.schema.content.jsonString(indent: 2))
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
            }
            page.raw("</div>\n")
        }
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
                page.raw("<div class=\"muted\">attachment ")
                page.text(attachment.label.map { "\($0) (\(attachment.url))" } ?? attachment.url)
                page.raw("</div>")
            }
        }
    }
}
