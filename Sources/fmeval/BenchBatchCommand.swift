import FMCore
import FMEmbedded
import Foundation

/// `fmeval bench batch [--json] [--model FILE] [--threads N] [--sequences LIST] [--tokens N] [--repeat N]`:
/// decode throughput of the embedded engine with N sequences decoding together (batched decoding).
struct BenchBatchCommand: Command {
    static let path = ["bench", "batch"]
    static let summary = "Measure batched decoding: total decode tokens/s with 1, 2, 4, 8 sequences at once"
    static let json = Flag("--json", help: "print the figures as one JSON object")
    static let model = Flag("--model", .value("FILE"), help: "the GGUF to measure (default: the default model)")
    static let threads = Flag("--threads", .value("N"), help: "threads of the runtime (default: the cores)")
    static let sequences = Flag("--sequences", .value("LIST"),
                                help: "the comma-separated numbers of sequences decoding together (default 1,2,4,8)")
    static let tokens = Flag("--tokens", .value("N"), help: "tokens each sequence generates (default 128)")
    static let repeatCount = Flag("--repeat", .value("N"), help: "measured rounds (default 3)")
    static let usage = CommandUsage("bench batch",
                                    flags: FlagTable(json, model, threads, sequences, tokens, repeatCount))
    static let help = """
    \(usage.line)

    Starts N requests at once on N threads (N from --sequences, default 1,2,4,8), each a different
    short prompt generating --tokens tokens (default 128, greedy, no stop token), and measures the
    decode phase: from the moment every sequence has its first token until the last finishes. The
    sequences decode together, one weight pass per step. Each round runs every N once, in order,
    so the configurations alternate in the same minutes; after one warm-up round, N rounds
    (--repeat, default 3) are measured and the median is reported with the speed-up over the
    smallest N, the process's CPU milliseconds per decoded token (steadier than tokens/s on a busy
    machine, where a run gets only a share of the cores) and the load average. --json prints
    {"tokensPerSequence", "threads", "kernels", "loadAverage", "results": [{"sequences",
    "tokensPerSecond", "runs", "speedup", "steps", "cpuMillisecondsPerToken"}]}.

    OPTIONS:
    \(usage.flags.list(column: 21))

    EXIT CODES: 0 ok · 2 bad flag or FILE not a usable GGUF · 3 the default model could not be fetched.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parser = try Arguments(arguments, command: "bench batch", flags: usage.flags)
        let json = parser.flag(Self.json)
        let modelPath = parser.value(model)
        let threads = try parser.int(Self.threads, minimum: 1) ?? ThreadPool.defaultThreadCount
        let repeats = try parser.int(repeatCount, minimum: 1) ?? 3
        let tokens = try parser.int(Self.tokens, minimum: 2) ?? 128
        let counts = try sequenceCounts(parser.value(sequences))
        let extra = parser.positionals
        guard extra.isEmpty else {
            throw Fault.invalidInput("bench batch: unexpected argument '\(extra[0])'; see 'fmeval help bench batch'")
        }
        guard tokens <= 512 else {
            throw Fault.invalidInput("bench batch: --tokens \(tokens) is more than 512; ask for fewer tokens per sequence")
        }
        let file = try openModel(modelPath)
        let model: LlamaModel
        do {
            model = try LlamaModel(file: file, contextLength: 1024, threads: threads)
        } catch let error as GGUFError {
            throw Fault.invalidInput("bench batch: \(error.description)")
        }
        let tokenizer = try openTokenizer(file, userSupplied: modelPath != nil)
        let generator = Generator(model: model, maxSequences: counts.max()!, draftTokens: 0)
        let prompt = BenchCommand.benchPrompt(tokenizer)
        let loadBefore = loadAverage()
        var runs = [Int: [Double]](), cpu = [Int: [Double]](), steps = [Int: Int]()
        for round in 0...repeats {
            for count in counts {
                let before = generator.decodeStats.steps
                let (rate, cpuPerToken) = try decodeRate(generator, prompt: prompt, sequences: count, tokens: tokens)
                guard round > 0 else { continue }
                runs[count, default: []].append(rate)
                cpu[count, default: []].append(cpuPerToken * 1000)
                steps[count] = generator.decodeStats.steps - before
            }
        }
        let load = [loadBefore, loadAverage()]
        let base = median(runs[counts[0]] ?? [])
        let results: [[String: Any]] = counts.map { count in
            let rate = median(runs[count] ?? [])
            return ["sequences": count, "tokensPerSecond": rate, "runs": runs[count] ?? [],
                    "speedup": base > 0 ? rate / base : 0, "steps": steps[count] ?? 0,
                    "cpuMillisecondsPerToken": median(cpu[count] ?? [])]
        }
        let kernels = model.kernelLevel.name
        if json {
            let object: [String: Any] = ["tokensPerSequence": tokens, "threads": model.pool.activeCount, "kernels": kernels,
                                         "loadAverage": load, "results": results]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "batched decode: %d tokens per sequence, median of %d runs; load average %.2f → %.2f",
                         tokens, repeats, load[0], load[1]))
            print("sequences  tokens/s  speed-up  CPU ms/token  steps/run  runs")
            for count in counts {
                let rate = median(runs[count] ?? [])
                print(String(format: "%9d  %8.1f  %7.2fx  %12.2f  %9d  %@", count, rate, base > 0 ? rate / base : 0,
                             median(cpu[count] ?? []), steps[count] ?? 0,
                             (runs[count] ?? []).map { String(format: "%.1f", $0) }.joined(separator: ", ")))
            }
            print("threads  \(model.pool.activeCount), kernels \(kernels)")
        }
        return ExitStatus.ok
    }

    /// The `--sequences` list: positive counts, comma-separated, at most 64 each.
    static func sequenceCounts(_ text: String?) throws -> [Int] {
        guard let text else { return [1, 2, 4, 8] }
        let counts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 != nil && $0! >= 1 && $0! <= 64 }) else {
            throw Fault.invalidInput("bench batch: --sequences '\(text)' is not a list of counts from 1 to 64 (e.g. 1,2,4,8)")
        }
        return counts.map { $0! }
    }

    /// Total decode tokens/s of `sequences` requests decoding `tokens` tokens each at once (the time
    /// from the last sequence's first token, when all are decoding, to the last one's end), and the
    /// process's CPU seconds per decoded token over that time (steadier than tokens/s on a busy machine).
    static func decodeRate(_ generator: Generator, prompt: [Int32], sequences: Int, tokens: Int) throws -> (Double, Double) {
        let start = StartLine(count: sequences)
        let failure = Locked<Error?>(nil)
        let group = DispatchGroup()
        for index in 0..<sequences {
            // Different prompts, so sequences decode different tokens at different positions.
            let ids = Array(prompt.prefix(8 + 3 * index))
            group.enter()
            Thread {
                let request = GenerationRequest(prompt: ids, maxTokens: tokens)
                var first = true
                do {
                    _ = try generator.generate(request) { _ in
                        if first { first = false; start.arrive() }
                        return true
                    }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
                if first { start.arrive() }
                group.leave()
            }.start()
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let decoded = Double(sequences * (tokens - 1))
        return (decoded / (monotonicSeconds() - start.openedAt), (cpuSeconds() - start.cpuAtOpen) / decoded)
    }

    /// CPU seconds (user and system) the process has used.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Seconds on a monotonic clock.
    static func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The one-minute load average (0 when the system does not say).
    static func loadAverage() -> Double {
        var loads = [0.0, 0.0, 0.0]
        return getloadavg(&loads, 3) > 0 ? loads[0] : 0
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Holds each sequence at its first token until all have one, and notes when they were let go.
// @unchecked Sendable: `arrived` and `openedAt` are read and written only under `condition`.
private final class StartLine: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var opened = 0.0, cpuOpened = 0.0

    init(count: Int) { self.count = count }

    /// Waits until every sequence has arrived; the last one to arrive notes the time.
    func arrive() {
        condition.lock()
        arrived += 1
        if arrived == count {
            opened = BenchBatchCommand.monotonicSeconds()
            cpuOpened = BenchBatchCommand.cpuSeconds()
            condition.broadcast()
        }
        while arrived < count { condition.wait() }
        condition.unlock()
    }

    /// When the last sequence arrived.
    var openedAt: Double { condition.lock(); defer { condition.unlock() }; return opened }

    /// The process's CPU seconds when the last sequence arrived.
    var cpuAtOpen: Double { condition.lock(); defer { condition.unlock() }; return cpuOpened }
}
