import FMCore

/// The readable text of a transcript for `fmeval transcript inspect`: one numbered block per entry with its
/// text, tool definitions, options, response format, tool calls and structured content.
struct TranscriptView {
    /// The transcript shown.
    let transcript: Transcript

    /// The whole view, ending without a newline.
    var text: String {
        var lines = [summaryLine]
        for (index, entry) in transcript.entries.enumerated() {
            lines.append("")
            lines.append(contentsOf: block(entry, number: index + 1))
        }
        return lines.joined(separator: "\n")
    }

    /// `N entries: instructions, prompt, …`.
    private var summaryLine: String {
        let count = transcript.entries.count
        let kinds = transcript.entries.map { Self.kindName($0) }.joined(separator: ", ")
        return "\(count) entr\(count == 1 ? "y" : "ies")" + (kinds.isEmpty ? "" : ": " + kinds)
    }

    /// The entry's kind as the view names it.
    private static func kindName(_ entry: Transcript.Entry) -> String {
        switch entry {
        case .instructions: return "instructions"
        case .prompt: return "prompt"
        case .response: return "response"
        case .reasoning: return "reasoning"
        case .toolCalls: return "tool calls"
        case .toolOutput: return "tool output"
        }
    }

    /// The lines of one entry: a heading, then its details indented.
    private func block(_ entry: Transcript.Entry, number: Int) -> [String] {
        var body: [String] = []
        switch entry {
        case .instructions(let instructions):
            body += segmentLines(instructions.segments)
            if !instructions.toolDefinitions.isEmpty {
                body.append("tools (\(instructions.toolDefinitions.count)):")
                for tool in instructions.toolDefinitions { body += toolLines(tool).map { "  " + $0 } }
            }
        case .prompt(let prompt):
            body += segmentLines(prompt.segments)
            let options = prompt.options.content.jsonString
            body.append("options: " + (options == "{}" ? "default" : options))
            if let format = prompt.responseFormat {
                body.append("response format: \(format.name)")
                body += schemaLines(format.schema).map { "  " + $0 }
            }
        case .response(let response):
            body += segmentLines(response.segments)
            if !response.assetIDs.isEmpty { body.append("assets: " + response.assetIDs.joined(separator: ", ")) }
        case .reasoning(let reasoning):
            body += segmentLines(reasoning.segments)
        case .toolCalls(let toolCalls):
            for call in toolCalls.calls {
                body.append("\(call.name)(\(call.arguments.jsonString))  call id \(call.id)")
            }
        case .toolOutput(let output):
            body.append("from \(output.toolName)" + (output.toolCallID.map { ", call id \($0)" } ?? ""))
            body += segmentLines(output.segments)
        }
        return ["[\(number)] \(Self.kindName(entry))  id \(entry.id)"] + body.map { "    " + $0 }
    }

    /// Text segments as their lines; structured segments as indented JSON with their source; attachments by
    /// label and URL (`inline` for a data: image).
    private func segmentLines(_ segments: [Transcript.Segment]) -> [String] {
        segments.flatMap { segment -> [String] in
            switch segment {
            case .text(let text):
                return text.content.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            case .structure(let structure):
                let heading = "structured content" + (structure.source.isEmpty ? ":" : " (source \(structure.source)):")
                return [heading] + structure.content.jsonString(indent: 2).split(separator: "\n").map { "  " + $0 }
            case .attachment(let attachment):
                let image = attachment.content.image
                let facts = [image?.contentType, image?.byteCount.map { "\($0) bytes" }, image?.sha256.map { "sha256 \($0)" }].compactMap { $0 }
                let location = image?.url ?? (image?.data == nil ? "(no URL)" : "inline")
                return ["attachment " + (attachment.label.map { "\"\($0)\" " } ?? "") + location
                        + (facts.isEmpty ? "" : " (" + facts.joined(separator: ", ") + ")")]
            }
        }
    }

    /// A tool's name and description, then its parameters.
    private func toolLines(_ tool: ToolDefinition) -> [String] {
        ["\(tool.name) — \(tool.description)"] + schemaLines(tool.parameters).map { "  " + $0 }
    }

    /// A schema as one line per top-level property (`name: type, required`), or its JSON when the root is no object.
    private func schemaLines(_ schema: GenerationSchema) -> [String] {
        guard case .object(let object) = schema.resolve(schema.root)?.kind else {
            return ["schema: " + schema.jsonString]
        }
        if object.properties.isEmpty { return ["(no properties)"] }
        return object.properties.map { property in
            var line = "\(property.name): \(Self.describe(property.node))"
            if !property.isRequired { line += ", optional" }
            if let description = property.node.description { line += " — \(description)" }
            return line
        }
    }

    /// A short description of a node: its type and the guides that narrow it.
    private static func describe(_ node: GenerationSchema.Node) -> String {
        switch node.kind {
        case .string(let string):
            if let choices = string.choices { return "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ") }
            return string.pattern.map { "string matching /\($0)/" } ?? "string"
        case .integer(let bounds), .number(let bounds):
            return (node.typeName ?? "number") + boundsText(bounds)
        case .array(let array):
            let counts = [array.minItems.map { "min \($0)" }, array.maxItems.map { "max \($0)" }].compactMap { $0 }
            return "array of \(describe(array.items))" + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))")
        case .reference(let name):
            return name == "#" ? "the root type" : name
        case .anyOf(let choices):
            return "any of " + choices.map { describe($0) }.joined(separator: " | ")
        case .object:
            return node.title ?? "object"
        case .boolean, .null:
            return node.typeName ?? ""
        }
    }

    /// ` min…max`, ` ≥ min`, ` ≤ max`, or nothing.
    private static func boundsText(_ bounds: GenerationSchema.NumberBounds) -> String {
        switch (bounds.minimum, bounds.maximum) {
        case let (low?, high?): return " \(formatNumber(low))…\(formatNumber(high))"
        case let (low?, nil): return " ≥ \(formatNumber(low))"
        case let (nil, high?): return " ≤ \(formatNumber(high))"
        case (nil, nil): return ""
        }
    }

    /// A bound without a trailing `.0` when it is whole.
    private static func formatNumber(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
