import FMCore
import Foundation
@testable import FMEngines

/// Builders shared by the openai engine tests.
enum OpenAIFixtures {
    /// The repository root (for reference/).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    /// Settings for a server at `base` (default: an unroutable placeholder never contacted); one try
    /// per request unless `retry` says otherwise.
    static func settings(_ base: String = "http://127.0.0.1:9/v1", stream: Bool = false, timeout: Double = 10,
                         seed: Int? = nil, extraBody: GeneratedContent? = nil, retry: RetryPolicy = .none) -> OpenAIEngineSettings {
        OpenAIEngineSettings(baseURL: URL(string: base)!, model: "test-model", timeoutSeconds: timeout,
                             extraBody: extraBody, stream: stream, seed: seed, retry: retry)
    }

    /// Three tries per request with no waits (Retry-After included: the cap is 0 s).
    static let instantRetries = RetryPolicy(maxAttempts: 3, initialDelaySeconds: 0, maxDelaySeconds: 0)

    /// A text segment.
    static func text(_ content: String, id: String = "s") -> Transcript.Segment { .text(.init(id: id, content: content)) }

    /// A transcript of optional instructions and one prompt.
    static func transcript(instructions: String? = nil, prompt: String) -> Transcript {
        var entries: [Transcript.Entry] = []
        if let instructions { entries.append(.instructions(.init(id: "i", segments: [text(instructions)]))) }
        entries.append(.prompt(.init(id: "p", segments: [text(prompt)])))
        return Transcript(entries: entries)
    }

    /// `{city: string}`, the arguments of the weather tool.
    static func citySchema() throws -> GenerationSchema {
        try GenerationSchema(root: .init(.object(.init(properties: [.init(name: "city", node: .init(.string(.init())))])), title: "City"))
    }

    /// The `getWeather` tool.
    static func weatherTool() throws -> ToolDefinition {
        ToolDefinition(name: "getWeather", description: "Get the weather in a city.", parameters: try citySchema())
    }

    /// Apple's reference schema `name` (reference/apple-fm-sdk/NAME.json).
    static func appleSchema(_ name: String) throws -> GenerationSchema {
        let url = repositoryRoot.appendingPathComponent("reference/apple-fm-sdk/\(name).json")
        return try GenerationSchema(json: String(contentsOf: url, encoding: .utf8))
    }

    /// The seven reference schema names.
    static let appleSchemaNames = ["age", "cat", "hedgehog", "newsletter", "person", "petClub", "shelter"]
}
