/// A model back end: turns one request (transcript so far, options, optional output constraint, tools)
/// into one response, synchronously, streaming events through a callback while it generates.
///
/// Engines are deliberately thin: the session layer (FMSession) owns Foundation Models semantics —
/// the tool loop, context accounting, truncation flags, snapshots — once for every engine.
/// An engine asked for a capability it lacks throws `LanguageModelError.unsupportedCapability`.
public protocol LanguageModelEngine: AnyObject {
    /// Which engine and model this is; part of the replay key.
    var identity: EngineIdentity { get }
    /// What this engine can do.
    var capabilities: EngineCapabilities { get }
    /// Generates the response to `request`, calling `onEvent` for each streamed event before returning.
    func respond(to request: EngineRequest, onEvent: (EngineEvent) -> Void) throws -> EngineResponse
    /// The number of prompt tokens `request` occupies, or nil when this engine cannot count tokens
    /// (the session then uses `TokenEstimate`).
    func promptTokenCount(for request: EngineRequest) throws -> Int?
    /// The number of tokens `text` takes in this engine's tokenizer (the device's `tokenCount(for:)`), or nil
    /// when this engine cannot count tokens (the session then uses `TokenEstimate`).
    func tokenCount(for text: String) throws -> Int?
    /// Facts about what served the run that are not part of the identity (a remote server's host, the
    /// model it reports, its build), recorded in the results fingerprint; empty for most engines.
    var runDetails: [String: String] { get }
}

extension LanguageModelEngine {
    /// No details beyond the identity.
    public var runDetails: [String: String] { [:] }

    /// Engines without a tokenizer cannot count: the session falls back to `TokenEstimate`.
    public func promptTokenCount(for request: EngineRequest) throws -> Int? { nil }

    /// Engines without a tokenizer cannot count: the session falls back to `TokenEstimate`.
    public func tokenCount(for text: String) throws -> Int? { nil }

    /// Throws `unsupportedCapability` when `request` needs something this engine lacks.
    public func checkCapabilities(for request: EngineRequest) throws {
        if let missing = capabilities.missing(for: request) {
            throw LanguageModelError.unsupportedCapability(.init(debugDescription:
                "engine '\(identity.name)' does not support \(missing); choose another engine or drop that requirement"))
        }
    }
}

/// Which engine and model answered: recorded in every run's fingerprint and in each replay key.
public struct EngineIdentity: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The engine name as given to `--engine`: `embedded`, `scripted`, `replay`, …
    public var name: String
    /// The model name (for example `SmolLM2-135M-Instruct`), or a description of the engine's source.
    public var model: String
    /// A content hash of the model weights (hex SHA-256), when there is a model file.
    public var modelHash: String?

    /// Creates an identity from its parts.
    public init(name: String, model: String, modelHash: String? = nil) {
        self.name = name
        self.model = model
        self.modelHash = modelHash
    }

    /// `name (model)`.
    public var description: String { "\(name) (\(model))" }
}

/// What an engine can do; asking for anything else is `unsupportedCapability`, never a silent downgrade.
public struct EngineCapabilities: Codable, Hashable, Sendable {
    /// Structured output constrained by a GenerationSchema.
    public var guidedGeneration: Bool
    /// Tool definitions and tool calls.
    public var toolCalling: Bool
    /// Incremental events while generating (otherwise the whole response arrives in one event).
    public var streaming: Bool
    /// Image attachments in prompts (Foundation Models 27); a text-only model has none.
    public var imageInput: Bool

    /// Creates a capability set.
    public init(guidedGeneration: Bool, toolCalling: Bool, streaming: Bool, imageInput: Bool = true) {
        self.guidedGeneration = guidedGeneration
        self.toolCalling = toolCalling
        self.streaming = streaming
        self.imageInput = imageInput
    }

    private enum CodingKeys: String, CodingKey { case guidedGeneration, toolCalling, streaming, imageInput }

    /// Decodes a capability set; one written before `imageInput` existed takes images.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(guidedGeneration: try container.decode(Bool.self, forKey: .guidedGeneration),
                  toolCalling: try container.decode(Bool.self, forKey: .toolCalling),
                  streaming: try container.decode(Bool.self, forKey: .streaming),
                  imageInput: try container.decodeIfPresent(Bool.self, forKey: .imageInput) ?? true)
    }

    /// Every capability.
    public static let all = EngineCapabilities(guidedGeneration: true, toolCalling: true, streaming: true)

    /// The name of the first capability `request` needs that is missing here, or nil when all are present.
    public func missing(for request: EngineRequest) -> String? {
        if request.schema != nil && !guidedGeneration { return "guidedGeneration (a response schema)" }
        if !request.tools.isEmpty && request.toolCallingMode != .disallowed && !toolCalling {
            return "toolCalling (tool definitions)"
        }
        if !imageInput, let image = request.transcript.firstAttachment {
            return "imageInput (the prompt attaches \(image.label.map { "image '\($0)'" } ?? "an image"): this model reads text only, and fmeval never drops an attachment)"
        }
        return nil
    }
}
