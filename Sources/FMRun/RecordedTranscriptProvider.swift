import FMCore
import FMEngines
import FMResults
import FMSession
import FMSuite

/// The provider of cases scored from recorded transcripts: each attempt's session driver plays back
/// the case's transcript (`RecordedSessionDriver`); no engine or model is created or loaded.
final class RecordedTranscriptProvider: EngineProvider {
    /// `recorded (transcripts)`: what results record as the engine of these cases.
    let identity = EngineIdentity(name: RecordedTranscript.engineName, model: "transcripts")
    /// The transcript of each case, by case id.
    private let transcripts: [String: RecordedTranscript]

    /// A provider for the recorded cases among `cases`.
    init(cases: [ExpandedCase]) {
        transcripts = Dictionary(cases.compactMap { item in item.recorded.map { (item.id, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// There is no engine: a judge of a recorded case names its own (`judge: {engine: NAME}`).
    func engine(for attempt: AttemptContext) throws -> LanguageModelEngine {
        throw RecordedTranscriptError(caseName: "noEngine",
            message: "\(attempt.caseID) is scored from a recorded transcript, which has no engine; name one for its judge (engine: NAME)")
    }

    /// The transcript's playback; an invalid transcript (run with `--keep-going`) is an infrastructure error.
    func sessionDriver(for attempt: AttemptContext) throws -> SessionDriver {
        guard let recorded = transcripts[attempt.caseID] else {
            throw RecordedTranscriptError(caseName: "missingTranscript", message: "\(attempt.caseID) has no recorded transcript")
        }
        guard let transcript = recorded.transcript else {
            throw RecordedTranscriptError(caseName: "invalidTranscript", message: recorded.problem?.description ?? "\(recorded.path): not a valid transcript")
        }
        return RecordedSessionDriver(transcript: transcript)
    }

    /// The pinned engine of cases scored from recorded transcripts: this provider, whatever the flags say.
    static let pinned = PinnedEngine(pin: { item in
        guard item.recorded != nil else { return nil }
        let written = (item.engineSpec.location ?? item.location).description
        return ResolvedEngine(configuration: EngineConfiguration(name: RecordedTranscript.engineName, options: [:]),
                              nameOrigin: written, optionOrigins: [:])
    }, provider: { RecordedTranscriptProvider(cases: $0) })

    /// The fingerprint's record of the transcripts scored: each file and its SHA-256, in case order.
    static func sources(of cases: [ExpandedCase]) -> [RecordedSource]? {
        var seen: Set<String> = []
        let sources = cases.compactMap(\.recorded).filter { seen.insert($0.path).inserted }.map {
            RecordedSource(path: $0.path, sha256: $0.sha256, sessionFile: $0.transcript?.sessionFileMembers)
        }
        return sources.isEmpty ? nil : sources
    }
}

/// A recorded case that cannot be played back: its transcript is invalid, or a judge asked it for an engine.
struct RecordedTranscriptError: ClassifiedError, CustomStringConvertible {
    /// `invalidTranscript`, `missingTranscript` or `noEngine`.
    var caseName: String
    /// The located problem and what to do.
    var message: String

    /// Not the model's doing: the input could not be scored.
    var failureClass: FailureClass { .infrastructure }
    /// `RecordedTranscript`.
    var domain: String { "RecordedTranscript" }
    /// The message.
    var failureMessage: String { message }
    /// The message.
    var description: String { message }
}
