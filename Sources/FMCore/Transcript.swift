/// The record of a session: instructions, prompts, responses, reasoning, tool calls and tool outputs,
/// in order (Apple's `FoundationModels.Transcript`). Reads and writes Apple's transcript JSON.
public struct Transcript: Hashable, Sendable {
    /// The entries, oldest first.
    public var entries: [Entry]
    /// Members of the file and of its `transcript` object this reader does not model, by the pointer of
    /// their object (`""` or `"/transcript"`), written back unchanged.
    public var additionalFields: [String: [String: GeneratedContent]] = [:]
    /// The dialect the transcript is written in: the one its file was read in, else Foundation Models 27's.
    @WrittenForm public var dialect: Dialect = .fm27
    /// The members of the `fm` tool's session-file wrapper (`modelName`, …) when the transcript was read from
    /// one (`{"modelName": …, "transcript": {TRANSCRIPT}}`); nil for a bare transcript file. Written back as read.
    public var sessionFileMembers: [String: GeneratedContent]?

    /// Creates a transcript.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// One entry of a transcript.
    public enum Entry: Hashable, Sendable {
        /// The instructions (and tool definitions) the session started with.
        case instructions(Instructions)
        /// A prompt from the user.
        case prompt(Prompt)
        /// A response from the model.
        case response(Response)
        /// The model's reasoning before a response.
        case reasoning(Reasoning)
        /// Tool calls the model made.
        case toolCalls(ToolCalls)
        /// The output of one tool call.
        case toolOutput(ToolOutput)

        /// The entry's identifier.
        public var id: String {
            switch self {
            case .instructions(let entry): return entry.id
            case .prompt(let entry): return entry.id
            case .response(let entry): return entry.id
            case .reasoning(let entry): return entry.id
            case .toolCalls(let entry): return entry.id
            case .toolOutput(let entry): return entry.id
            }
        }
    }

    /// A piece of entry content.
    public enum Segment: Hashable, Sendable {
        /// Plain text.
        case text(TextSegment)
        /// Generated structured content.
        case structure(StructuredSegment)
        /// An attached image, by URL.
        case attachment(AttachmentSegment)

        /// The segment's identifier.
        public var id: String {
            switch self {
            case .text(let segment): return segment.id
            case .structure(let segment): return segment.id
            case .attachment(let segment): return segment.id
            }
        }

        /// The segment as text: the text itself, a structure's JSON, or an attachment's label or URL.
        public var text: String {
            switch self {
            case .text(let segment): return segment.content
            case .structure(let segment): return segment.content.jsonString
            case .attachment(let segment): return segment.label ?? segment.url
            }
        }
    }

    /// A text segment.
    public struct TextSegment: Hashable, Sendable {
        /// The segment's identifier.
        public var id: String
        /// The text.
        public var content: String
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a text segment.
        public init(id: String, content: String) {
            self.id = id
            self.content = content
        }
    }

    /// A structured segment: generated content and the name of the type it was generated for.
    public struct StructuredSegment: Hashable, Sendable {
        /// The segment's identifier.
        public var id: String
        /// The type name of the schema the content was generated for (`source` in Apple's JSON).
        public var source: String
        /// The generated value.
        public var content: GeneratedContent
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]
        /// Members of the `structure` object besides `source` and `content`, written back unchanged.
        public var structureFields: [String: GeneratedContent] = [:]

        /// Creates a structured segment.
        public init(id: String, source: String, content: GeneratedContent) {
            self.id = id
            self.source = source
            self.content = content
        }
    }

    /// An attachment in a prompt (Foundation Models 27): its content and an optional label that tools can
    /// refer to. `Transcript+Attachment.swift` holds `Attachment` and `ImageAttachment`.
    public struct AttachmentSegment: Hashable, Sendable {
        /// The segment's identifier.
        public var id: String
        /// The attached image.
        public var content: Attachment
        /// A short name for the attachment, which the model and tools can refer to.
        public var label: String?
        /// The JSON shape the segment was read in; nil writes the transcript dialect's (`Transcript+Segments.swift`).
        @WrittenForm public var form: AttachmentForm?
        /// Segment members this reader does not model, written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]
        /// Members of Foundation Models 27's `attachment` object besides `type`, `label` and `data`, kept as read.
        public var attachmentFields: [String: GeneratedContent] = [:]

        /// Creates an attachment segment.
        public init(id: String, content: Attachment, label: String? = nil) {
            self.id = id
            self.content = content
            self.label = label
        }

        /// Creates a segment holding the image at `url` (a file or https URL), without its bytes.
        public init(id: String, url: String, label: String? = nil) {
            self.init(id: id, content: .image(ImageAttachment(url: url)), label: label)
        }

        /// The image's URL, else a description of its bytes (`image/png, 1204 bytes`).
        public var url: String { content.summary }
    }

    /// The instructions entry: text segments and the tools the model may call.
    public struct Instructions: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// The instruction segments.
        public var segments: [Segment]
        /// The tools available in the session.
        public var toolDefinitions: [ToolDefinition]
        /// Whether an empty `tools` list is written (it was in the file read).
        @WrittenForm public var writesEmptyTools = false
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates an instructions entry.
        public init(id: String, segments: [Segment], toolDefinitions: [ToolDefinition] = []) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }
    }

    /// The structured output a prompt asked for.
    public struct ResponseFormat: Hashable, Sendable {
        /// The type name (Apple's `jsonSchema.name`).
        public var name: String
        /// The schema of the response.
        public var schema: GenerationSchema
        /// Members of `responseFormat` besides `type` and `jsonSchema`, written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]
        /// Members of `jsonSchema` besides `name` and `schema`, written back unchanged.
        public var jsonSchemaFields: [String: GeneratedContent] = [:]

        /// Creates a response format.
        public init(name: String, schema: GenerationSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// A prompt entry.
    public struct Prompt: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// The prompt segments.
        public var segments: [Segment]
        /// The options the prompt was answered with.
        public var options: GenerationOptions
        /// The structured output requested, if any.
        public var responseFormat: ResponseFormat?
        /// Whether the entry has an `options` member (Apple's encoders always write one; hand-written files may not).
        @WrittenForm public var writesOptions = true
        /// Whether a `contextOptions` member is written when `additionalFields` has none: nil does what the
        /// dialect does (Foundation Models 27 writes `{}`), false keeps a file that had none without one.
        @WrittenForm public var writesContextOptions: Bool?
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a prompt entry.
        public init(id: String, segments: [Segment], options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
        }
    }

    /// A response entry.
    public struct Response: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// Identifiers of the model assets that produced it.
        public var assetIDs: [String]
        /// Whether an empty `assets` list is written: nil does what the dialect does (Foundation Models 27 writes
        /// it), true or false what the file read did.
        @WrittenForm public var writesEmptyAssets: Bool?
        /// The response segments.
        public var segments: [Segment]
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a response entry.
        public init(id: String, assetIDs: [String] = [], segments: [Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
        }
    }

    /// A reasoning entry.
    public struct Reasoning: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// The reasoning segments.
        public var segments: [Segment]
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a reasoning entry.
        public init(id: String, segments: [Segment]) {
            self.id = id
            self.segments = segments
        }
    }

    /// The tool calls of one model turn.
    public struct ToolCalls: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// The calls, in the order the model made them.
        public var calls: [ToolCall]
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a tool-calls entry.
        public init(id: String, calls: [ToolCall]) {
            self.id = id
            self.calls = calls
        }
    }

    /// The output of one tool call.
    public struct ToolOutput: Hashable, Sendable {
        /// The entry's identifier.
        public var id: String
        /// The tool that produced it.
        public var toolName: String
        /// The identifier of the call this answers, when known.
        public var toolCallID: String?
        /// The output segments.
        public var segments: [Segment]
        /// Members this reader does not model (Foundation Models 27's `metadata`, later keys), written back unchanged.
        public var additionalFields: [String: GeneratedContent] = [:]

        /// Creates a tool-output entry.
        public init(id: String, toolName: String, toolCallID: String? = nil, segments: [Segment]) {
            self.id = id
            self.toolName = toolName
            self.toolCallID = toolCallID
            self.segments = segments
        }
    }
}

extension Transcript {
    /// Apple's spelling: `Transcript.ToolCall`.
    public typealias ToolCall = FMCore.ToolCall
    /// Apple's spelling: `Transcript.ToolDefinition`.
    public typealias ToolDefinition = FMCore.ToolDefinition
}
