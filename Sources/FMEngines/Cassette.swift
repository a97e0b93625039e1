import Foundation
import FMCore

/// Recorded engine calls: the replay engine's input, the `--record` output.
///
/// JSON: `{"cassette": 1, "engine": {name, model, modelHash?}, "entries": [{"key", "request", "events",
/// "response"} | {"key", "request", "events", "error": {"case", "debugDescription"}}]}`.
/// `key` is the SHA-256 of the canonical request (engine identity included), see `Cassette.key`.
public struct Cassette: Codable, Sendable {
    /// The cassette format version.
    public static let currentVersion = 1

    /// The format version of this cassette.
    public var cassette: Int
    /// The engine that was recorded.
    public var engine: EngineIdentity
    /// The recorded calls, in recording order.
    public var entries: [CassetteEntry]

    /// An empty cassette for `engine`.
    public init(engine: EngineIdentity, entries: [CassetteEntry] = []) {
        self.cassette = Cassette.currentVersion
        self.engine = engine
        self.entries = entries
    }

    /// The `EngineRequest` fields deliberately left out of the key: `contextBudget` follows from the
    /// context size and the prompt, both already keyed. Every other field is keyed (a test checks), so a
    /// field added to the request must be keyed, which changes persisted keys, or be listed here.
    public static let unkeyedRequestFields: Set<String> = ["contextBudget"]

    /// The canonical text of `request` as answered by `engine`: compact JSON, keys in a fixed order.
    public static func canonicalText(of request: EngineRequest, engine: EngineIdentity) -> String {
        canonicalContent(of: request, engine: engine).jsonString
    }

    /// The replay key: hex SHA-256 of the canonical text.
    public static func key(of request: EngineRequest, engine: EngineIdentity) -> String {
        SHA256.hex(of: Array(canonicalText(of: request, engine: engine).utf8))
    }

    /// The canonical request as a JSON value (what keys hash and what a miss is diffed on).
    public static func canonicalContent(of request: EngineRequest, engine: EngineIdentity) -> GeneratedContent {
        var identity: [(String, GeneratedContent)] = [("name", GeneratedContent(engine.name)), ("model", GeneratedContent(engine.model))]
        if let hash = engine.modelHash { identity.append(("modelHash", GeneratedContent(hash))) }
        var members: [(String, GeneratedContent)] = [
            ("engine", GeneratedContent(properties: identity)),
            // Keyed in the Foundation Models 26 dialect, as before FM 27 became the written default, so
            // cassettes recorded by earlier releases keep their keys.
            ("transcript", request.transcript.converted(to: .fm26).content),
            ("options", request.options.content),
            ("schema", request.schema?.content ?? .null),
            ("tools", GeneratedContent(request.tools.map(\.content))),
            ("constrained", GeneratedContent(request.constrained)),
            ("includeSchemaInPrompt", GeneratedContent(request.includeSchemaInPrompt)),
        ]
        if let enforcement = request.guideEnforcement { members.append(("guideEnforcement", GeneratedContent(enforcement.rawValue))) }
        if let guards = request.loopGuards { members.append(("loopGuards", guards.content)) }
        return GeneratedContent(properties: members)
    }

    /// Reads a cassette file; errors name the file (with line and column where the JSON is wrong) and say
    /// what to do. `flag` is the flag that named the file, for the hint.
    public static func load(path: String, flag: String = "--cassette") throws -> Cassette {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Fault.invalidInput("\(flag) \(path): cannot read the cassette; record one with --record \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Fault.invalidInput("\(path): the cassette is not UTF-8 text (\(flag))")
        }
        let cassette: Cassette
        do {
            cassette = try Cassette(content: try GeneratedContent(json: text))
        } catch let error as GeneratedContent.ParsingError {
            throw Fault.invalidInput("\(path):\(error.line):\(error.column): \(error.message) (\(flag) reads a "
                + "cassette written by --record or --cache; fix the JSON or delete the file)")
        } catch let error as CassetteFormatError {
            let location = (try? GeneratedContent.parseWithLocations(json: text).locations)
                .flatMap { $0[error.path] ?? $0[error.parent] }.map { ":\($0)" } ?? ""
            throw Fault.invalidInput("\(path)\(location): not a valid cassette \(error) (\(flag); fix it, or "
                + "delete the file and record it again)")
        }
        guard cassette.cassette <= currentVersion else {
            throw Fault.invalidInput("\(path): cassette format version \(cassette.cassette); this fmeval reads up "
                + "to \(currentVersion): update fmeval or record the cassette again (\(flag))")
        }
        return cassette
    }

    /// Writes the cassette as JSON indented by two spaces, atomically.
    public func write(to path: String) throws {
        try Data(ContentEncoder.encode(self).jsonString(indent: 2).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// One recorded call: the request, what streamed, and the response or the error.
public struct CassetteEntry: Codable, Sendable {
    /// `Cassette.key` of the request.
    public var key: String
    /// The canonical request, as JSON.
    public var request: GeneratedContent
    /// The streamed events, in order.
    public var events: [EngineEvent]
    /// The response, when the call succeeded.
    public var response: EngineResponse?
    /// The model error, when the call threw one.
    public var error: LanguageModelError?

    /// Creates an entry.
    public init(key: String, request: GeneratedContent, events: [EngineEvent], response: EngineResponse?, error: LanguageModelError?) {
        self.key = key
        self.request = request
        self.events = events
        self.response = response
        self.error = error
    }
}
