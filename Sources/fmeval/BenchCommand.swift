import FMCore
import FMEmbedded
import Foundation

/// `fmeval bench [--json] [--model FILE] [--threads N]`: the embedded engine's load time, prompt
/// processing and decoding speed at each kernel level, and peak memory.
struct BenchCommand: Command {
    static let path = ["bench"]
    static let summary = "Measure the embedded engine: load time, prefill and decode tokens/s, peak RSS"
    static let json = Flag("--json", help: "print the figures as one JSON object")
    static let model = Flag("--model", .value("FILE"), help: "the GGUF to measure (default: the default model)")
    static let threads = Flag("--threads", .value("N"), help: "threads of the runtime (default: the cores)")
    static let repeatCount = Flag("--repeat", .value("N"), help: "measured runs of prefill and decode (default 3)")
    static let usage = CommandUsage("bench", flags: FlagTable(json, model, threads, repeatCount))
    static let help = """
    \(usage.line)

    Loads the default model (fetched first if needed, not timed) or FILE, then measures:
      load      mapping the GGUF, reading the weights' layout and the tokenizer (seconds)
      prefill   a 300-token prompt processed from an empty cache (tokens/s, like llama-bench pp)
      decode    128 tokens generated one at a time after a short prompt (tokens/s, like tg128)
      peak RSS  the process's maximum resident memory (bytes)
    Prefill and decode run N times (default 3) after one warm-up; the median is reported. They are
    measured at every kernel level this CPU runs (portable, avx2, avx512-vnni, neon, neon-dotprod;
    all give the same tokens), the level runs use first; FMEVAL_KERNEL_LEVEL=LEVEL measures that
    level only. The machine's other load changes the figures: compare runs made under the same
    conditions.
    The memory-read bound: the pool's threads stream a buffer of a decode step's weight bytes (read
    again until a pass has read 256 MiB; in 2 MB pages on Linux, as the packed layer weights are) in
    3 passes just before and 3 just after each decode run of the level used; a run is held to the
    best of its six passes, as neighbours on a shared machine take a varying share of the memory
    from one second to the next. The bound is that bandwidth over the weight bytes a decode step
    reads; the fraction printed is the median run's. "memory" is the best of all passes, the
    median's shortfall from it the spread. Where decode time goes per token: the
    layers' matrix-vector products, attention, the output head, the norms, the mask and sampling.
    --json prints {"loadSeconds", "prefillTokensPerSecond", "decodeTokensPerSecond", "peakRSSBytes",
    "threads", "kernels", "prefillKernel", "levels": [{"level", "prefillTokensPerSecond",
    "decodeTokensPerSecond"}], "memoryReadBytesPerSecond", "memoryReadPasses", "memoryReadSpread",
    "decodeBytesPerToken", "decodeBoundTokensPerSecond", "decodeFractionOfBound", "decodeFractionsOfBound",
    "decodeMillisecondsPerToken": {"matrixVector", "attention", "outputHead", "norms", "mask",
    "sampling"}}, the unnamed figures being those of "kernels", the level runs use.
    FMEVAL_PREFILL_KERNEL=rows runs prefill on the earlier row kernel instead of tiles (same results),
    to compare the two.

    OPTIONS:
    \(usage.flags.list(column: 19))

    EXIT CODES: 0 ok · 2 bad flag, FILE not a usable GGUF, or an unknown or unavailable
    FMEVAL_KERNEL_LEVEL · 3 the default model could not be fetched.
    """

    /// Tokens in the prefill prompt.
    static let prefillTokens = 300
    /// Tokens generated in the decode measurement.
    static let decodeTokens = 128
    /// Probe passes just before and just after each measured decode round: the bandwidth a round is held
    /// to is the best of them, read within a second of it.
    static let passesBesideDecode = 3

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "bench", flags: usage.flags)
        let json = parser.flag(Self.json)
        let modelPath = parser.value(model)
        let threads = try parser.int(Self.threads, minimum: 1) ?? ThreadPool.defaultThreadCount
        let repeats = try parser.int(repeatCount, minimum: 1) ?? 3
        let extra = parser.positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("bench: unexpected argument '\(extra[0])'; see 'fmeval help bench'")
        }
        let path = try modelPath ?? openModel(nil).path
        let defaultLevel = try KernelLevel.fromEnvironment()
        let loadStart = Date()
        let file = try openModel(path)
        let model: LlamaModel
        do {
            model = try LlamaModel(file: file, contextLength: 1024, threads: threads, kernelLevel: defaultLevel)
        } catch let error as GGUFError {
            throw Fault.invalidInput("bench: \(error.description)")
        }
        let tokenizer = try openTokenizer(file, userSupplied: modelPath != nil)
        let loadSeconds = Date().timeIntervalSince(loadStart)

        let prompt = benchPrompt(tokenizer)
        let forced = getenv(KernelLevel.environmentVariable).map { !String(cString: $0).isEmpty } ?? false
        let others = forced ? [] : KernelLevel.available.reversed().filter { $0 != defaultLevel }
        let stepBytes = model.weights.bytesPerDecodeStep
        let reader = BandwidthProbe.Reader(pool: model.pool, bytes: stepBytes)
        var levels = [try measure(model, prompt: prompt, repeats: repeats, beside: reader)]
        for level in others {
            let other = try LlamaModel(file: file, contextLength: 1024, threads: threads, kernelLevel: level)
            levels.append(try measure(other, prompt: prompt, repeats: repeats, beside: nil))
        }
        let main = levels[0]
        let probe = BandwidthProbe(bytesPerSecond: main.passes)
        let bounds = main.besideDecode.map { $0 / Double(stepBytes) }
        let fractions = zip(main.decode, bounds).map { $0 / $1 }
        let bound = median(bounds), fraction = median(fractions)
        let phases = DecodeProfile.Phase.allCases.map { ($0.key, main.profile.millisecondsPerStep($0)) }
        let figures: [(String, Any)] = [
            ("loadSeconds", loadSeconds),
            ("prefillTokensPerSecond", median(main.prefill)),
            ("decodeTokensPerSecond", median(main.decode)),
            ("peakRSSBytes", peakRSSBytes()),
            ("threads", model.pool.activeCount),
            ("kernels", defaultLevel.name),
            ("prefillKernel", model.prefillKernel.rawValue),
            ("levels", levels.map { ["level": $0.level.name, "prefillTokensPerSecond": median($0.prefill),
                                     "decodeTokensPerSecond": median($0.decode)] as [String: Any] }),
            ("memoryReadBytesPerSecond", probe.best),
            ("memoryReadPasses", probe.bytesPerSecond),
            ("memoryReadSpread", probe.spread),
            ("decodeBytesPerToken", stepBytes),
            ("decodeBoundTokensPerSecond", bound),
            ("decodeFractionOfBound", fraction),
            ("decodeFractionsOfBound", fractions),
            ("decodeMillisecondsPerToken", Dictionary(uniqueKeysWithValues: phases)),
        ]
        if json {
            let object = Dictionary(uniqueKeysWithValues: figures)
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "load     %.3f s", loadSeconds))
            print(String(format: "prefill  %.1f tokens/s  (%d-token prompt; runs: %@)", median(main.prefill), prompt.count,
                         main.prefill.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
            print(String(format: "decode   %.1f tokens/s  (%d tokens; runs: %@)", median(main.decode), decodeTokens,
                         main.decode.map { String(format: "%.1f", $0) }.joined(separator: ", ")))
            print(String(format: "peak RSS %.1f MB", Double(peakRSSBytes()) / 1_000_000))
            print("threads  \(model.pool.activeCount), kernels \(defaultLevel.name), prefill kernel \(model.prefillKernel.rawValue)")
            print(String(format: "memory   %.1f GB/s read (best of %d passes over a buffer of a decode step's %.1f MB; "
                         + "median %.1f GB/s, %.1f %% below)", probe.best / 1e9, probe.bytesPerSecond.count,
                         Double(stepBytes) / 1e6, probe.median / 1e9, probe.spread * 100))
            print(String(format: "bound    %.1f tokens/s (%.1f MB of weights a token, read beside each decode run); "
                         + "decode runs at %.2f of it (runs: %@)", bound, Double(stepBytes) / 1e6, fraction,
                         fractions.map { String(format: "%.2f", $0) }.joined(separator: ", ")))
            print("per token " + phases.map { String(format: "%@ %.3f ms", $0.0, $0.1) }.joined(separator: ", "))
            print("kernel level         prefill tokens/s   decode tokens/s")
            for figures in levels {
                let name = figures.level.name + (figures.level == defaultLevel ? " (used)" : "")
                print(name.padding(toLength: 20, withPad: " ", startingAt: 0)
                      + String(format: " %16.1f %17.1f", median(figures.prefill), median(figures.decode)))
            }
        }
        return ExitStatus.ok
    }

    /// One level's prefill and decode speeds (tokens/s, one per round after a warm-up).
    private struct LevelFigures {
        var level: KernelLevel
        var prefill: [Double] = []
        var decode: [Double] = []
        /// Where the measured decode rounds spent their time.
        var profile = DecodeProfile()
        /// Every probe pass run beside the decode rounds (bytes per second).
        var passes: [Double] = []
        /// For each decode round, the best of the passes just before and just after it.
        var besideDecode: [Double] = []
    }

    /// Measures `model` (at its kernel level): `repeats` rounds of prefill and decode after one warm-up,
    /// each decode round between passes of `reader` when there is one.
    private static func measure(_ model: LlamaModel, prompt: [Int32], repeats: Int,
                                beside reader: BandwidthProbe.Reader?) throws -> LevelFigures {
        let generator = Generator(model: model, draftTokens: 0)
        var figures = LevelFigures(level: model.kernelLevel)
        for round in 0...repeats {
            generator.resetCache()
            let first = try generator.generate(GenerationRequest(prompt: prompt, maxTokens: 0))
            generator.resetCache()
            model.decodeProfile = round > 0 ? figures.profile : nil
            defer { model.decodeProfile = nil }
            let before = round > 0 ? reader?.read(passes: passesBesideDecode) ?? [] : []
            let second = try generator.generate(GenerationRequest(prompt: Array(prompt.prefix(8)), maxTokens: decodeTokens + 1))
            guard round > 0 else { continue }
            let passes = before + (reader?.read(passes: passesBesideDecode) ?? [])
            figures.passes += passes
            if let best = passes.max() { figures.besideDecode.append(best) }
            figures.prefill.append(Double(prompt.count) / first.prefillSeconds)
            figures.decode.append(Double(second.tokens.count - 1) / second.decodeSeconds)
        }
        return figures
    }

    /// A chat-style prompt of exactly `prefillTokens` tokens (English prose, tokenized by the model).
    static func benchPrompt(_ tokenizer: Tokenizer) -> [Int32] {
        let sentences = [
            "The harbour town woke slowly, fishing boats knocking against the old stone quay.",
            "A baker on Mill Street pulled the first loaves from the oven at a quarter past five.",
            "Children argued about the tide tables while their parents checked the weather twice.",
            "By noon the market square held forty stalls selling cheese, rope, apples and maps.",
            "An engineer from the ferry company measured the pier and wrote numbers in a notebook.",
        ]
        var text = "Summarize the following notes in three sentences.\n\n"
        var ids: [Int] = []
        var index = 0
        while ids.count < prefillTokens {
            text += sentences[index % sentences.count] + " Note \(index + 1). "
            ids = tokenizer.tokenize(text)
            index += 1
        }
        return ids.prefix(prefillTokens).map { Int32($0) }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The process's peak resident set size in bytes.
    static func peakRSSBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #endif
    }
}
