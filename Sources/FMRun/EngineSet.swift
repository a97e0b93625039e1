import Foundation
import FMCore
import FMResults
import FMEngines
import FMEvaluate
import FMSuite

/// The engine providers a run needs, created up front so that a missing engine stops the run
/// before anything executes; judges get theirs on demand.
// @unchecked Sendable: `providers` is read and changed only under `lock`; `recorder` and `cache` are set only
// in `init`.
final class EngineSet: @unchecked Sendable {
    let request: RunRequest
    private let lock = NSLock()
    private var providers: [EngineConfiguration: EngineProvider] = [:]
    /// Each configuration's provider before `--record` or `--cache` wraps it: the probe goes to the engine itself.
    private var unwrapped: [EngineConfiguration: EngineProvider] = [:]
    private var recorder: CassetteRecorder?
    private var cache: CassetteCache?
    /// The identity recorded in the fingerprint: the first case's engine.
    let primaryIdentity: EngineIdentity
    private let primary: EngineProvider?

    init(request: RunRequest, cases: [ExpandedCase]) throws {
        self.request = request
        var configurations: [EngineConfiguration] = []
        for item in cases {
            let configuration = EngineSet.configuration(for: item, request: request)
            if !configurations.contains(configuration) { configurations.append(configuration) }
        }
        var pinned: [EngineConfiguration: PinnedEngine] = [:]
        for item in cases {
            guard let (entry, engine) = PinnedEngines.pin(item), entry.provider != nil else { continue }
            pinned[engine.configuration] = entry
        }
        configurations.removeAll { pinned[$0] != nil }
        for (flag, path) in [("--record", request.record), ("--cache", request.cache)] where path != nil {
            guard configurations.count > 1 else { continue }
            let names = configurations.map(\.summary).joined(separator: ", ")
            throw Fault.invalidInput("\(flag) keeps one engine's cassette, but these cases use \(names); pick one with --engine")
        }
        for configuration in configurations {
            var provider = try request.provider ?? EngineRegistry.provider(for: configuration)
            unwrapped[configuration] = provider
            if let path = request.record {
                let recording = CassetteRecorder(recording: provider, to: path)
                recorder = recording
                provider = recording
            }
            if let path = request.cache {
                let caching = try CassetteCache(caching: provider, at: path)
                cache = caching
                provider = caching
            }
            providers[configuration] = provider
        }
        for (configuration, entry) in pinned.sorted(by: { $0.key.summary < $1.key.summary }) {
            providers[configuration] = entry.provider?(cases)
            unwrapped[configuration] = providers[configuration]
            configurations.append(configuration)
        }
        let first = configurations.first.flatMap { [providers] in providers[$0] }
        primary = first
        primaryIdentity = first?.identity ?? EngineIdentity(name: request.engine ?? EngineRegistry.defaultEngine, model: request.model ?? "default")
    }

    /// The first case's engine's details (server host, reported model, build), nil when it has none.
    var primaryDetails: [String: String]? {
        guard let details = primary?.details, !details.isEmpty else { return nil }
        return details
    }

    /// The configuration `item` runs on: name and options (see `EngineResolution`).
    static func configuration(for item: ExpandedCase, request: RunRequest) -> EngineConfiguration {
        EngineResolution.resolve(item, request: request).configuration
    }

    /// The engine `item` runs on when it can be probed for schema enforcement (`ConstraintProbing`); nil for
    /// any other engine (or one that cannot be had). Never the `--record` or `--cache` wrapper, so the probe
    /// is neither recorded nor answered from a cassette.
    func probeable(for item: ExpandedCase) -> (any ConstraintProbing)? {
        let configuration = EngineSet.configuration(for: item, request: request)
        lock.lock()
        let provider = unwrapped[configuration]
        lock.unlock()
        let context = AttemptContext(caseID: item.id + "#probe", caseData: item.engineData, attempt: 0)
        return try? provider?.engine(for: context) as? any ConstraintProbing
    }

    /// The provider of `item`'s engine (created in `init`).
    func provider(for item: ExpandedCase) -> EngineProvider {
        let configuration = EngineSet.configuration(for: item, request: request)
        lock.lock()
        defer { lock.unlock() }
        return providers[configuration]!
    }

    /// Judges use the case's engine (or the named one) when it can answer without a script.
    func environment(for item: ExpandedCase) -> EvaluationEnvironment {
        let directory = FilePaths.parent(of: item.location.file)
        return EvaluationEnvironment(judgeEngine: { [self] choice in
            var configuration = EngineSet.configuration(for: item, request: request)
            if let name = choice.name {
                let descriptor = EngineRegistry.descriptor(named: name)
                let takesCassette = descriptor?.option(EngineConfiguration.cassetteOption) != nil
                configuration = EngineConfiguration(name: name, cassette: takesCassette ? request.cassette : nil)
            }
            lock.lock()
            defer { lock.unlock() }
            if providers[configuration] == nil { providers[configuration] = try? EngineRegistry.provider(for: configuration) }
            let context = AttemptContext(caseID: item.id + "#judge", caseData: choice.data, attempt: 0)
            return try? providers[configuration]?.engine(for: context)
        }, workingDirectory: directory, commands: item.commands)
    }

    /// How the `--cache` file answered the run so far; nil without `--cache`.
    var cacheUse: CacheUse? {
        cache.map { cache in
            let usage = cache.usage
            return CacheUse(path: cache.path, callsFromCache: usage.fromCache, callsRecorded: usage.recorded)
        }
    }

    /// Writes the `--record` cassette, when recording.
    func saveRecording() throws {
        guard let recorder else { return }
        do {
            try recorder.save()
        } catch {
            throw Fault.infrastructure("cannot write cassette \(recorder.path): \(error.localizedDescription)")
        }
    }
}
