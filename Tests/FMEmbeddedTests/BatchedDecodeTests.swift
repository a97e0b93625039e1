import FMCore
import FMEmbedded
import Foundation
import Testing

/// The reference prompts of reference/smollm2/greedy-public.json (llama.cpp's greedy tokens).
struct ReferencePrompt: Decodable {
    let promptTokens: [Int32]
    let greedyTokens: [Int32]

    static func all() throws -> [ReferencePrompt] {
        struct File: Decodable { let cases: [ReferencePrompt] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../reference/smollm2/greedy-public.json").standardized
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
    }
}

/// A grammar-like restriction that changes every step: after `n` accepted tokens it allows the ids
/// with `(id + n) % modulus != 0`, and always the stop token.
final class RotatingConstraint: TokenConstraint {
    private let modulus: Int
    private var accepted = 0

    init(modulus: Int) { self.modulus = modulus }

    func allowedTokens(_ mask: UnsafeMutableBufferPointer<UInt32>) {
        for id in 0..<(mask.count * 32) where (id + accepted) % modulus != 0 || id == 2 {
            mask[id / 32] |= 1 << UInt32(id % 32)
        }
    }

    func accept(_ token: Int32) { accepted += 1 }
}

/// Holds threads until `count` have arrived, so their sequences are all decoding at once.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrived = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func arriveAndWait() {
        condition.lock()
        arrived += 1
        condition.broadcast()
        while arrived < count { condition.wait() }
        condition.unlock()
    }
}

/// One request of a test: prompt, limit and whether (and how) a constraint restricts it.
struct Job {
    var prompt: [Int32]
    var maxTokens: Int
    var modulus: Int?
    var cancelAfter: Int?

    func request() -> GenerationRequest {
        GenerationRequest(prompt: prompt, maxTokens: maxTokens, stopTokens: [2],
                          constraint: modulus.map { RotatingConstraint(modulus: $0) })
    }
}

/// The default model, loaded once for these tests.
enum SharedModel {
    static let model: Result<LlamaModel, Error> = Result {
        let url = try ModelStore.defaultModelURL { print($0) }
        return try LlamaModel(path: url.path, contextLength: 2048)
    }
}

/// Runs every job on its own thread against `generator`; each waits at `gate` after its first token
/// (or when it ends), so all sequences decode together. Returns each job's result or error.
func runConcurrently(_ jobs: [Job], on generator: Generator) -> [Result<GenerationResult, Error>] {
    let gate = Gate(count: jobs.count)
    let results = Locked<[Int: Result<GenerationResult, Error>]>([:])
    onThreads(jobs.count) { index in
        let job = jobs[index]
        var waited = false
        let result = Result {
            try generator.generate(job.request()) { _ in
                if !waited { waited = true; gate.arriveAndWait() }
                return true
            }
        }
        if !waited { gate.arriveAndWait() }
        results.withLock { $0[index] = result }
    }
    let collected = results.withLock { $0 }
    return jobs.indices.map { collected[$0]! }
}

/// Runs `body(index)` for `0..<count`, each on its own thread (not a pool that may run fewer at a
/// time than the gates wait for), and returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// Steps a batch of sequences took: every generated token but a last one that ended on the limit or
/// a cancellation was fed back through a decode step.
private func fedTokens(_ result: GenerationResult) -> Int {
    switch result.finishReason {
    case .length, .cancelled, .contextFull: return max(0, result.tokens.count - 1)
    case .stop, .constraintExhausted: return result.tokens.count
    }
}

@Suite(.serialized) struct BatchedDecodeTests {
    @Test func batchedSequencesGetTheirSingleSequenceTokens() throws {
        let model = try SharedModel.model.get()
        let references = try ReferencePrompt.all()
        let limits = [48, 7, 30, 1, 48, 12, 20, 48]
        let moduli: [Int?] = [nil, 3, nil, nil, 4, nil, 5, nil]
        let jobs = references.indices.map { Job(prompt: references[$0].promptTokens, maxTokens: limits[$0], modulus: moduli[$0]) }

        // No drafts: every step feeds one token a sequence, which the step counts below rely on
        // (SpeculativeDecodeTests covers drafts).
        let single = Generator(model: model, maxSequences: 1, draftTokens: 0)
        let expected = try jobs.map { job -> GenerationResult in
            single.resetCache()
            return try single.generate(job.request())
        }
        let batched = Generator(model: model, maxSequences: 8, draftTokens: 0)
        let results = runConcurrently(jobs, on: batched)
        for (index, result) in results.enumerated() {
            let ours = try result.get()
            #expect(ours.tokens == expected[index].tokens, "prompt \(index)")
            #expect(ours.finishReason == expected[index].finishReason, "prompt \(index)")
            if moduli[index] == nil {
                var tokens = ours.tokens
                if case .stop(let token) = ours.finishReason { tokens.append(token) }
                #expect(tokens == Array(references[index].greedyTokens.prefix(tokens.count)), "prompt \(index) vs llama.cpp")
            }
        }
        #expect(expected.contains { $0.tokens.count > 20 } && expected.contains { $0.finishReason != .length })
        let stats = batched.decodeStats
        #expect(stats.largestBatch == jobs.filter { $0.maxTokens > 1 }.count)
        #expect(stats.tokens == results.reduce(0) { $0 + ((try? fedTokens($1.get())) ?? 0) })
        #expect(stats.steps < stats.tokens / 2)
    }

    @Test func cancelledAndFailingRequestsLeaveTheBatch() throws {
        let model = try SharedModel.model.get()
        let references = try ReferencePrompt.all()
        let good = Job(prompt: references[0].promptTokens, maxTokens: 40)
        let cancelled = Job(prompt: references[5].promptTokens, maxTokens: 40, cancelAfter: 3)
        let unknownToken = Job(prompt: [1, 2, 99_999_999], maxTokens: 10)
        let tooLong = Job(prompt: [Int32](repeating: 28, count: 4096), maxTokens: 10)
        let jobs = [good, cancelled, unknownToken, tooLong]
        let generator = Generator(model: model, maxSequences: 4)
        let gate = Gate(count: 2)
        let outcomes = Locked<[Int: Result<GenerationResult, Error>]>([:])
        onThreads(jobs.count) { index in
            let job = jobs[index]
            var seen = 0
            let result = Result {
                try generator.generate(job.request()) { _ in
                    seen += 1
                    if seen == 1 && index < 2 { gate.arriveAndWait() }
                    return seen != job.cancelAfter
                }
            }
            outcomes.withLock { $0[index] = result }
        }
        let results = outcomes.withLock { $0 }
        #expect(try results[0]!.get().tokens == Array(references[0].greedyTokens.prefix(40)))
        let stopped = try results[1]!.get()
        #expect(stopped.finishReason == .cancelled && stopped.tokens == Array(references[5].greedyTokens.prefix(3)))
        #expect(throws: LlamaRunError.self) { try results[2]!.get() }
        #expect((try? results[3]!.get()) == nil)
        #expect(generator.decodeStats.largestBatch == 2)
        // The generator still serves requests afterwards, from every slot.
        let again = try generator.generate(good.request())
        #expect(again.tokens == Array(references[0].greedyTokens.prefix(40)))
    }

    @Test func eachSlotKeepsItsPrefixForTheNextRequest() throws {
        let model = try SharedModel.model.get()
        let references = try ReferencePrompt.all()
        let (first, second) = (references[1].promptTokens, references[7].promptTokens)
        let generator = Generator(model: model, maxSequences: 2)
        let results = runConcurrently([Job(prompt: first, maxTokens: 4), Job(prompt: second, maxTokens: 4)], on: generator)
        #expect(results.allSatisfy { (try? $0.get().reusedPromptTokens) == 0 })
        // Both prompts stay cached, one per slot: each comes back with all but its last two tokens
        // reused (they run together, as in a cold run's last pass: the logits stay a cold run's).
        for prompt in [second, first, second] {
            let again = try generator.generate(GenerationRequest(prompt: prompt, maxTokens: 2, stopTokens: [2]))
            #expect(prompt.count < 128 && again.reusedPromptTokens == prompt.count - 2)
        }
        #expect(generator.decodeStats.largestBatch == 2)
    }

    @Test func aPrefixHeldByAnotherSlotIsCopiedNotRecomputed() throws {
        let model = try SharedModel.model.get()
        let references = try ReferencePrompt.all()
        let (first, third) = (references[0].promptTokens, references[2].promptTokens)
        // Shares 32 tokens with `first` and 24 (the system prompt) with `third`.
        let variant = Array(first.prefix(32)) + Array(references[1].promptTokens.suffix(12))
        let alone = Generator(model: model, maxSequences: 1)
        let expected = try alone.generate(GenerationRequest(prompt: variant, maxTokens: 12, stopTokens: [2])).tokens
        let generator = Generator(model: model, maxSequences: 2)
        _ = runConcurrently([Job(prompt: first, maxTokens: 2), Job(prompt: third, maxTokens: 2)], on: generator)
        // Whichever takes the slot holding `first`, the other gets the slot holding `third` (24 shared
        // tokens) and copies the 32 it shares with the first slot from there.
        let results = runConcurrently([Job(prompt: first, maxTokens: 12), Job(prompt: variant, maxTokens: 12)], on: generator)
        let again = try results[0].get(), other = try results[1].get()
        #expect(again.reusedPromptTokens >= 32 && other.reusedPromptTokens == 32)
        #expect(again.tokens == Array(references[0].greedyTokens.prefix(12)))
        #expect(other.tokens == expected)
    }

    @Test func oneSequenceAtATimeRunsRequestsWhole() throws {
        let model = try SharedModel.model.get()
        let references = try ReferencePrompt.all()
        let jobs = (0..<3).map { Job(prompt: references[$0].promptTokens, maxTokens: 10) }
        let generator = Generator(model: model, maxSequences: 1)
        let results = runUngated(jobs, on: generator)
        for (index, result) in results.enumerated() {
            #expect(try result.get().tokens == Array(references[index].greedyTokens.prefix(10)))
        }
        #expect(generator.decodeStats.largestBatch == 1)
    }

    @Test func decodeRejectsInputsTheModelCannotRun() throws {
        let model = try SharedModel.model.get()
        let logits = UnsafeMutablePointer<Float>.allocate(capacity: model.config.vocabSize)
        defer { logits.deallocate() }
        let cache = model.makeCache()
        let bad = [DecodeInput(token: 5, position: cache.capacity, cache: cache, logits: logits, mask: nil),
                   DecodeInput(token: -1, position: 0, cache: cache, logits: logits, mask: nil)]
        for input in bad {
            #expect(throws: LlamaRunError.self) { try [input].withUnsafeBufferPointer { try model.decode($0) } }
        }
    }
}

/// Runs `jobs` on concurrent threads with no gate (they queue for the generator's one slot).
private func runUngated(_ jobs: [Job], on generator: Generator) -> [Result<GenerationResult, Error>] {
    let results = Locked<[Int: Result<GenerationResult, Error>]>([:])
    onThreads(jobs.count) { index in
        let result = Result { try generator.generate(jobs[index].request()) }
        results.withLock { $0[index] = result }
    }
    let collected = results.withLock { $0 }
    return jobs.indices.map { collected[$0]! }
}
