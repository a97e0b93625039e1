// Declarations only: the part of Apple's Foundation Models API that Sources/FMEngines/System uses, written
// from Apple's published declarations so that `.ci/typecheck-system-engine` can type-check the `system`
// engine on Linux. Never a package target, never linked, never run: every body traps. A misspelled or
// removed API in the engine fails the check; an API that Apple renames must be renamed here from its page.
// Each declaration names the documentation page it was written from: "page: PATH" is
// https://developer.apple.com/documentation/foundationmodels/PATH (read 2026-12-01).
// The String overloads of respond(to:) are in Apple's LanguageModelSession overview example
// (`session.respond(to: prompt)` with a String `prompt`); their own pages were not found.
import Foundation

private func declarationOnly() -> Never { fatalError("FoundationModels declarations are for type-checking only") }

// page: convertiblefromgeneratedcontent
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    // page: convertiblefromgeneratedcontent/init(_:)
    init(_ content: GeneratedContent) throws
}

// page: promptrepresentable
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public protocol PromptRepresentable {}

// page: convertibletogeneratedcontent
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public protocol ConvertibleToGeneratedContent: PromptRepresentable {
    // page: convertibletogeneratedcontent/generatedcontent
    var generatedContent: GeneratedContent { get }
}

// page: generable
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    // page: generable/generationschema
    static var generationSchema: GenerationSchema { get }
}

// page: generatedcontent
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public struct GeneratedContent: Sendable, Equatable, Generable {
    // page: generatedcontent/init(json:)
    public init(json: String) throws { declarationOnly() }
    // page: generatedcontent/init(_:)-456z9
    public init(_ content: GeneratedContent) throws { declarationOnly() }
    // page: generatedcontent/jsonstring
    public var jsonString: String { declarationOnly() }
    // page: convertibletogeneratedcontent/generatedcontent
    public var generatedContent: GeneratedContent { declarationOnly() }
    // page: generable/generationschema
    public static var generationSchema: GenerationSchema { declarationOnly() }
}

// page: generable (String is Generable; Tool's
// typical Output is a String: page: tool)
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
extension String: Generable {
    public init(_ content: GeneratedContent) throws { declarationOnly() }
    public var generatedContent: GeneratedContent { declarationOnly() }
    public static var generationSchema: GenerationSchema { declarationOnly() }
}

// page: generationschema (Codable: Decodable from the
// JSON Schema it encodes)
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public struct GenerationSchema: Sendable, Codable {
    public init(from decoder: any Decoder) throws { declarationOnly() }
    public func encode(to encoder: any Encoder) throws { declarationOnly() }
}

// page: transcript (Codable)
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public struct Transcript: Sendable, Equatable, Codable {
    public init(from decoder: any Decoder) throws { declarationOnly() }
    public func encode(to encoder: any Encoder) throws { declarationOnly() }
}

// page: generationoptions
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public struct GenerationOptions: Sendable, Equatable {
    // page: generationoptions/samplingmode-swift.struct
    public struct SamplingMode: Sendable, Equatable {
        // page: generationoptions/samplingmode-swift.struct/greedy
        public static var greedy: GenerationOptions.SamplingMode { declarationOnly() }
        // page: generationoptions/samplingmode-swift.struct/random(top:seed:)
        public static func random(top k: Int, seed: UInt64? = nil) -> GenerationOptions.SamplingMode {
            declarationOnly()
        }
        // page: generationoptions/samplingmode-swift.struct/random(probabilitythreshold:seed:)
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil)
            -> GenerationOptions.SamplingMode { declarationOnly() }
    }

    // page: generationoptions/init(sampling:temperature:maximumresponsetokens:)
    public init(sampling: GenerationOptions.SamplingMode?, temperature: Double? = nil,
                maximumResponseTokens: Int? = nil) { declarationOnly() }
    // page: generationoptions/init(samplingmode:temperature:maximumresponsetokens:)
    public init(samplingMode: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil,
                maximumResponseTokens: Int? = nil) { declarationOnly() }
}

// page: tool
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public protocol Tool<Arguments, Output>: Sendable {
    // page: tool/arguments
    associatedtype Arguments: ConvertibleFromGeneratedContent
    // page: tool/output
    associatedtype Output: PromptRepresentable
    // page: tool/name
    var name: String { get }
    // page: tool/description
    var description: String { get }
    // page: tool/parameters
    var parameters: GenerationSchema { get }
    // page: tool/includesschemaininstructions
    var includesSchemaInInstructions: Bool { get }
    // page: tool/call(arguments:)
    func call(arguments: Self.Arguments) async throws -> Self.Output
}

@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
extension Tool {
    // page: tool/includesschemaininstructions
    public var includesSchemaInInstructions: Bool { declarationOnly() }
}

// page: systemlanguagemodel
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public final class SystemLanguageModel: Sendable {
    private init() { declarationOnly() }
    // page: systemlanguagemodel/default
    public static let `default` = SystemLanguageModel()
    // page: systemlanguagemodel/availability-swift.property
    public var availability: SystemLanguageModel.Availability { declarationOnly() }

    // page: systemlanguagemodel/availability-swift.enum
    @frozen public enum Availability: Equatable, Sendable {
        // page: systemlanguagemodel/availability-swift.enum/available
        case available
        // page: systemlanguagemodel/availability-swift.enum/unavailable(_:)
        case unavailable(SystemLanguageModel.Availability.UnavailableReason)

        // page: systemlanguagemodel/availability-swift.enum/unavailablereason
        public enum UnavailableReason: Equatable, Sendable {
            // page: systemlanguagemodel/availability-swift.enum/unavailablereason/appleintelligencenotenabled
            case appleIntelligenceNotEnabled
            // page: systemlanguagemodel/availability-swift.enum/unavailablereason/devicenoteligible
            case deviceNotEligible
            // page: systemlanguagemodel/availability-swift.enum/unavailablereason/modelnotready
            case modelNotReady
        }
    }
}

// page: languagemodelsession
@available(macOS 26.0, iOS 26.0, visionOS 26.0, *)
public final class LanguageModelSession {
    private init() { declarationOnly() }

    // page: languagemodelsession/init(model:tools:transcript:)
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init()
    }

    // page: languagemodelsession/transcript
    public final var transcript: Transcript { declarationOnly() }

    // page: languagemodelsession/respond(to:options:)
    // (the String overload: the example on page: languagemodelsession)
    @discardableResult
    nonisolated(nonsending) public final func respond(to prompt: String,
                                                      options: GenerationOptions = GenerationOptions())
        async throws -> LanguageModelSession.Response<String> { declarationOnly() }

    // page: languagemodelsession/respond(to:schema:includeschemainprompt:options:)
    @discardableResult
    nonisolated(nonsending) public final func respond(to prompt: String, schema: GenerationSchema,
                                                      includeSchemaInPrompt: Bool = true,
                                                      options: GenerationOptions = GenerationOptions())
        async throws -> LanguageModelSession.Response<GeneratedContent> { declarationOnly() }

    // page: languagemodelsession/response
    public struct Response<Content> where Content: Generable {
        // page: languagemodelsession/response/content
        public let content: Content
        // page: languagemodelsession/response/rawcontent
        public let rawContent: GeneratedContent
    }

    // page: languagemodelsession/generationerror
    public enum GenerationError: Error, LocalizedError {
        // page: languagemodelsession/generationerror/context
        public struct Context: Sendable {
            // page: languagemodelsession/generationerror/context/debugdescription
            public let debugDescription: String
        }

        // page: languagemodelsession/generationerror/refusal
        public struct Refusal: Sendable {}

        // page: languagemodelsession/generationerror/exceededcontextwindowsize(_:)
        case exceededContextWindowSize(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/assetsunavailable(_:)
        case assetsUnavailable(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/guardrailviolation(_:)
        case guardrailViolation(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/unsupportedguide(_:)
        case unsupportedGuide(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/unsupportedlanguageorlocale(_:)
        case unsupportedLanguageOrLocale(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/decodingfailure(_:)
        case decodingFailure(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/ratelimited(_:)
        case rateLimited(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/concurrentrequests(_:)
        case concurrentRequests(LanguageModelSession.GenerationError.Context)
        // page: languagemodelsession/generationerror/refusal(_:_:)
        case refusal(LanguageModelSession.GenerationError.Refusal, LanguageModelSession.GenerationError.Context)
    }

    // page: languagemodelsession/toolcallerror
    public struct ToolCallError: Error, LocalizedError {
        // page: languagemodelsession/toolcallerror/tool
        public var tool: any Tool
        // page: languagemodelsession/toolcallerror/underlyingerror
        public var underlyingError: any Error
        // page: languagemodelsession/toolcallerror/init(tool:underlyingerror:)
        public init(tool: any Tool, underlyingError: any Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }
    }
}
