import FMCore
import FMEngines
import FMResults
import FMRun
import Foundation

/// `fmeval bench suite`: runs the fixed benchmark suite (or another) and prints its throughput.
struct BenchSuiteCommand: Command {
    static let path = ["bench", "suite"]
    static let summary = "Run the benchmark suite and measure cases/s, prefill and decode tokens/s, cache hit rate, peak RSS"
    /// The benchmark suite run when no `--suite` is given.
    static let defaultSuite = "benchmarks"
    static let json = Flag("--json", help: "print the figures as JSON")
    static let suite = Flag("--suite", .repeatable("PATH"),
                            help: "the suite file or folder to run (repeatable; default \(defaultSuite))")
    static let jobs = Flag("--jobs", short: "-j", .value("N"), help: "cases run in parallel (default 1)")
    static let model = Flag("--model", .value("FILE"), help: "the model for the engine (its `model` option)")
    static let results = Flag("--results", .value("FILE"),
                              help: "keep the run's results document at FILE (default: a temporary file, removed)")
    static let usage = CommandUsage("bench suite", flags: FlagTable(json, suite, jobs)
                                 + EngineFlags.table(default: "the suite's `engine:`")
                                 + FlagTable(model, results, RunCommand.noProbe)
                                 + ThroughputFlags.table)
    static let help = """
    \(usage.line)

    Runs every case of the benchmark suite (default: \(defaultSuite), run from the repository root;
    --suite PATH, repeatable, runs suite files or folders instead) as `fmeval run` would, without the
    run history, then prints:
      cases/s    cases over the run's wall-clock time
      prefill    prompt tokens processed per second of engine prefill time (from the engine's timings:
                 the embedded engine's, llama-server's `timings`; absent for engines without them)
      decode     generated tokens per second of engine decode time (concurrent requests overlap, so
                 with --jobs N these are per-sequence speeds; cases/s is the throughput)
      time       where the wall time went: prefill, decode (with the grammar's masks, the part of both
                 the embedded engine spent computing allowed tokens), grammar building, tools, and the
                 harness (the rest: planning, templates, parsing, scoring, writing; with --jobs N above 1
                 engine times overlap and the harness is not derived)
      cache      input tokens served from the engine's prompt cache, of all input tokens
      reused     attempts answered from an identical earlier greedy attempt (--no-reuse-repeats: none)
      peak RSS   fmeval's maximum resident memory (for --engine openai the server's is not measured)
      answers    a SHA-256 over every attempt's answer: equal digests mean identical results
    Gates do not decide the exit code: a benchmark measures. --json prints these figures as one object
    (RunThroughput in docs/engine.md) with "engine", "jobs", "reuseRepeats", "caseOrder", "peakRSSBytes"
    and "peakRSSScope".

    OPTIONS:
    \(usage.flags.list())

    EXIT CODES: 0 the run finished · 2 bad flag, or a suite that does not load · 3 a case ended in an
    infrastructure error, or the engine could not start.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, command: "bench suite", flags: usage.flags)
        let json = args.flag(Self.json)
        let suites = args.values(Self.suite)
        let jobs = try args.int(Self.jobs, minimum: 1) ?? 1
        let engineFlags = try EngineFlags.parse(args)
        let model = args.value(Self.model)
        let kept = args.value(Self.results)
        let throughput = try ThroughputFlags.parse(args, command: "bench suite")
        let extra = args.positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("bench suite: unexpected argument '\(extra[0])'; give suites with --suite PATH (see 'fmeval help bench suite')")
        }
        let paths = suites.isEmpty ? [defaultSuite] : suites
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw Fault.invalidInput("bench suite: no suite at \(path)"
                + (suites.isEmpty ? "; run from the repository root, or give --suite PATH" : "; give an existing suite file or folder"))
        }
        let temporary = FilePaths.join(FileManager.default.temporaryDirectory.path, "fmeval-bench-\(UUID().uuidString)")
        let resultsPath = kept ?? FilePaths.join(temporary, "results.json")
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        if kept == nil { try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true) }

        var request = RunRequest(paths: paths, resultsPath: resultsPath)
        request.engine = engineFlags.name
        request.engineOptions = engineFlags.options
        request.model = model
        request.arguments = ["bench", "suite"] + arguments
        request.probeConstraints = !args.flag(RunCommand.noProbe)
        request.options = RunnerOptions(jobs: jobs)
        throughput.apply(to: &request.options)
        let result: RunResult
        do {
            let plan = try RunPipeline.plan(request)
            if kept != nil { try OutputPaths.check(resultsPath, flag: "--results \(resultsPath)") }
            result = try RunPipeline.execute(request, plan: plan, notice: { printError("fmeval: \($0)") })
        } catch let error as Fault {
            throw error.prefixed("bench suite: ")
        }
        let figures = RunThroughput(result, jobs: jobs)
        let engine = result.run.fingerprint.engine
        let remote = result.cases.contains { $0.engine?.name == EngineRegistry.serverEngine }
        let rss = BenchCommand.peakRSSBytes()
        if json {
            try printJSON(figures, extra: [
                "engine": engine.description, "jobs": jobs, "reuseRepeats": throughput.reuseRepeats,
                "caseOrder": throughput.caseOrder.rawValue, "peakRSSBytes": rss,
                "peakRSSScope": remote ? "fmeval only (the server's memory is not measured)" : "fmeval",
                "suites": paths,
            ])
        } else {
            printText(figures, engine: engine.description, paths: paths, jobs: jobs, rss: rss, remote: remote)
        }
        if let kept { print("results: \(kept)") }
        return figures.errored > 0 ? ExitStatus.infrastructure : ExitStatus.ok
    }

    /// The figures as one JSON object with `extra`'s members added, keys sorted.
    private static func printJSON(_ figures: RunThroughput, extra: [String: Any]) throws {
        let encoder = JSONEncoder()
        var object = try JSONSerialization.jsonObject(with: encoder.encode(figures)) as? [String: Any] ?? [:]
        for (key, value) in extra { object[key] = value }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// The `time` line: the wall time split into prefill, decode, masks, grammar, tools and harness.
    static func timeLine(_ f: RunThroughput, jobs: Int) -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.1f s", $0) } ?? "not reported" }
        let masks = f.maskSeconds.map { String(format: " (masks %.1f s of prefill and decode)", $0) } ?? ""
        let harness = f.harnessSeconds.map { String(format: "%.1f s", $0) }
            ?? (jobs > 1 ? "not derived (\(jobs) cases at a time: engine times overlap)" : "not derived (no engine timings)")
        return String(format: "time     %.1f s wall: prefill %@, decode %@%@, grammar %@, tools %.1f s, harness %@",
                      f.wallSeconds, seconds(f.prefillSeconds), seconds(f.decodeSeconds), masks,
                      seconds(f.grammarSeconds), f.toolSeconds, harness)
    }

    /// The `drafts` line: draft tokens matched and tokens the grammar forced; nil when neither was counted.
    static func draftLine(_ f: RunThroughput) -> String? {
        guard f.draftTokens != nil || f.forcedTokens != nil else { return nil }
        let (drafted, accepted) = (f.draftTokens ?? 0, f.acceptedDraftTokens ?? 0)
        let rate = drafted > 0 ? String(format: " (%.0f%%)", Double(accepted) / Double(drafted) * 100) : ""
        let forced = f.forcedTokens ?? 0
        return "drafts   \(accepted) of \(drafted) draft tokens matched\(rate); \(forced) tokens forced by grammars"
    }

    /// The figures as aligned lines.
    private static func printText(_ f: RunThroughput, engine: String, paths: [String], jobs: Int, rss: Int, remote: Bool) {
        print("suite    \(paths.joined(separator: " ")): \(f.cases) cases, \(f.attempts) attempts on \(engine), jobs \(jobs)")
        print(String(format: "cases/s  %.2f  (%.1f s wall)", f.casesPerSecond, f.wallSeconds))
        if let rate = f.prefillTokensPerSecond {
            print(String(format: "prefill  %.1f tokens/s  (%d tokens in %.1f s engine time)", rate, f.prefillTokens, f.prefillSeconds))
        } else {
            print("prefill  not reported by the engine")
        }
        if let rate = f.decodeTokensPerSecond {
            print(String(format: "decode   %.1f tokens/s  (%d tokens in %.1f s engine time)", rate, f.decodeTokens, f.decodeSeconds))
        } else {
            print("decode   not reported by the engine")
        }
        let hit = f.cacheHitRate.map { String(format: "%.1f%%", $0 * 100) } ?? "n/a"
        print(timeLine(f, jobs: jobs))
        if let line = draftLine(f) { print(line) }
        print("cache    \(hit) of input tokens cached  (\(f.cachedInputTokens) of \(f.inputTokens))")
        print("reused   \(f.reusedAttempts) of \(f.attempts) attempts answered from identical earlier attempts")
        print(String(format: "peak RSS %.1f MB%@", Double(rss) / 1_000_000, remote ? " (fmeval only: the server's is not measured)" : ""))
        print("results  \(f.passed) passed, \(f.failed) failed, \(f.flaky) flaky, \(f.knownIssues) known issues, \(f.errored) error")
        print("answers  sha256 \(f.answersSHA256)")
    }
}
