import FMCore
import FMEngines
import FMSuite

/// The constraint-honesty probe before a run (docs/engines.md, "Constraint-honesty probe"): each engine that
/// hands grammar-channel schemas to a server (`ConstraintProbing`) is probed once per run, before any case
/// runs, when cases on the grammar channel will run on it. A server that ignores the schema stops the run
/// (exit 3), so its answers are not scored as the model's failures.
enum ConstraintProbes {
    /// Whether `item` asks an engine for a schema on the grammar channel: `generating:` with `constrained`
    /// (the default), and not scored from a recorded transcript.
    static func onGrammarChannel(_ item: ExpandedCase) -> Bool {
        item.generating != nil && item.settings.constrained && item.recorded == nil
    }

    /// Probes each probeable engine of the grammar-channel cases among `pending`, once per configuration.
    /// Throws `Fault.infrastructure` when a server ignores the probe schema (naming it and what to do) or
    /// the probe request itself fails.
    static func check(_ pending: [ExpandedCase], engines: EngineSet) throws {
        let grammar = pending.filter(onGrammarChannel)
        var seen: Set<EngineConfiguration> = []
        for item in grammar {
            let configuration = EngineSet.configuration(for: item, request: engines.request)
            guard seen.insert(configuration).inserted, let engine = engines.probeable(for: item) else { continue }
            let cases = grammar.filter { EngineSet.configuration(for: $0, request: engines.request) == configuration }
            let verdict: ConstraintProbe.Verdict
            do {
                verdict = try engine.probeConstraints()
            } catch {
                let message = (error as? ClassifiedError)?.failureMessage ?? String(describing: error)
                throw Fault.infrastructure("constraint probe: the request to the \(engine.probeTarget) failed: "
                    + "\(message); nothing was run. Start or fix the server, or pass --no-probe to skip the probe")
            }
            if case .ignored(let answer) = verdict {
                throw Fault.infrastructure(ignoredMessage(target: engine.probeTarget, answer: answer, cases: cases))
            }
        }
    }

    /// The exit-3 message for a server that ignored the probe schema.
    static func ignoredMessage(target: String, answer: String, cases: [ExpandedCase]) -> String {
        let quoted = GeneratedContent(answer).jsonString
        let count = "\(cases.count) grammar-channel case\(cases.count == 1 ? "" : "s")"
        let named = cases.prefix(3).map(\.id).joined(separator: ", ") + (cases.count > 3 ? ", …" : "")
        return "constraint probe: the \(target) ignored response_format: its answer \(quoted) does not match "
            + "the probe schema {\"probe\": \"\(ConstraintProbe.token)\"} (a single-value enum), so the server "
            + "does not enforce JSON Schema and the \(count) (\(named)) would score the server, not the model; "
            + "nothing was run. Use a server that enforces response_format json_schema (llama-server does; "
            + "on vLLM, a guided-decoding backend), run the cases on the prompt channel (options: "
            + "{constrained: false}), or pass --no-probe to score them anyway"
    }
}
