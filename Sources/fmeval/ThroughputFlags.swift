import FMCore
import FMRun

/// `--no-reuse-repeats` and `--case-order`: how a run saves engine work, shared by `run` and `bench suite`.
struct ThroughputFlags {
    /// Answer identical greedy repeats from the first (false with `--no-reuse-repeats`).
    var reuseRepeats = true
    /// The order cases start in.
    var caseOrder = CaseOrder.prefix

    /// `--no-reuse-repeats`.
    static let noReuseRepeats = Flag("--no-reuse-repeats", help: """
        send every attempt to the engine; by default a greedy attempt whose request
        equals an earlier attempt's of the same case (no command tools, an engine that
        declares itself deterministic: embedded, scripted) is answered from it and
        marked `reusedFrom` in the results (--check-determinism still reruns each)
        """)
    /// `--case-order prefix|suite`.
    static let caseOrder = Flag("--case-order", .value("prefix|suite"), help: """
        prefix (default): start cases sharing engine, instructions, tools and schema
        one after another, so the engine's prompt-prefix cache serves their common
        prompt; suite: start them in suite order. Results and reports keep suite order
        """)
    /// The two flags.
    static let table = FlagTable(noReuseRepeats, caseOrder)

    /// Reads the flags from `args`; an unknown `--case-order` is exit 2 naming the choices.
    static func parse(_ args: Arguments, command: String) throws -> ThroughputFlags {
        var flags = ThroughputFlags()
        flags.reuseRepeats = !args.flag(noReuseRepeats)
        if let name = args.value(caseOrder) {
            guard let order = CaseOrder(rawValue: name) else {
                let names = CaseOrder.allCases.map(\.rawValue)
                let hint = Suggestion.closest(to: name, in: names).map { " (did you mean \($0)?)" } ?? ""
                throw Fault.invalidInput("\(command): --case-order must be prefix or suite, not '\(name)'\(hint)")
            }
            flags.caseOrder = order
        }
        return flags
    }

    /// Sets these choices on `options`.
    func apply(to options: inout RunnerOptions) {
        options.reuseRepeats = reuseRepeats
        options.caseOrder = caseOrder
    }
}
