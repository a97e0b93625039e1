import Foundation
import Testing
import FMCore

/// A retryable failure, with an optional Retry-After.
private struct Flaky: ClassifiedError {
    var retryAfterSeconds: Double?
    var failureClass: FailureClass { .retryableInfrastructure }
    var domain: String { "HTTPError" }
    var caseName: String { "serviceUnavailable" }
    var failureMessage: String { "503" }
}

/// Records the waits it is asked for and hands out fixed random numbers, in order.
private final class FakeClock: @unchecked Sendable {
    private let lock = NSLock()
    private var randoms: [Double]
    private(set) var waits: [Double] = []

    init(randoms: [Double] = []) { self.randoms = randoms }

    var clock: RetryClock {
        RetryClock(sleep: { seconds in self.lock.withLock { self.waits.append(seconds) } },
                   random: { self.lock.withLock { self.randoms.isEmpty ? 0 : self.randoms.removeFirst() } })
    }
}

/// Runs `policy` over a body that throws `failures` in turn, then returns the number of tries.
private func attempt(_ policy: RetryPolicy, failures: [Error], clock: FakeClock) -> (Result<Int, Error>, retries: [RetryEvent]) {
    var tries = 0
    var events: [RetryEvent] = []
    let result = Result {
        try policy.run(clock: clock.clock, onRetry: { events.append($0) }) { () throws -> Int in
            tries += 1
            if tries <= failures.count { throw failures[tries - 1] }
            return tries
        }
    }
    return (result, events)
}

@Test func backoffGrowsByTheMultiplierUpToTheCap() throws {
    let policy = RetryPolicy(maxAttempts: 8, initialDelaySeconds: 0.5, maxDelaySeconds: 5, multiplier: 3, jitter: 0)
    #expect((1...6).map { policy.backoff(beforeRetry: $0) } == [0.5, 1.5, 4.5, 5, 5, 5])
    let clock = FakeClock()
    let (result, events) = attempt(policy, failures: Array(repeating: Flaky(), count: 4), clock: clock)
    #expect(try result.get() == 5)
    #expect(clock.waits == [0.5, 1.5, 4.5, 5])
    #expect(events.map(\.retry) == [1, 2, 3, 4])
    #expect(events.map(\.delaySeconds) == clock.waits)
}

@Test func fullJitterWaitsAnywhereFromTheWholeBackoffDownToNothing() {
    let policy = RetryPolicy(maxAttempts: 4, initialDelaySeconds: 2, maxDelaySeconds: 100, multiplier: 2, jitter: 1)
    let clock = FakeClock(randoms: [0, 0.5, 0.999])
    _ = attempt(policy, failures: Array(repeating: Flaky(), count: 3), clock: clock)
    #expect(clock.waits.count == 3)
    #expect(clock.waits[0] == 2)
    #expect(clock.waits[1] == 2)
    #expect(abs(clock.waits[2] - 0.008) < 1e-9)
    let half = RetryPolicy(initialDelaySeconds: 4, jitter: 0.5)
    for random in stride(from: 0.0, to: 1.0, by: 0.05) {
        let wait = half.delay(beforeRetry: 1, random: random, retryAfter: nil)
        #expect(wait > 2 && wait <= 4, "half jitter keeps the wait in (2, 4], got \(wait)")
    }
}

@Test func retryAfterReplacesTheBackoffWithoutJitterAndIsCapped() throws {
    let policy = RetryPolicy(maxAttempts: 4, initialDelaySeconds: 1, maxDelaySeconds: 10, multiplier: 2, jitter: 1)
    let clock = FakeClock(randoms: [0.5, 0.5, 0.5])
    let (result, _) = attempt(policy, failures: [Flaky(retryAfterSeconds: 7), Flaky(retryAfterSeconds: 60), Flaky()], clock: clock)
    #expect(try result.get() == 4)
    #expect(clock.waits == [7, 10, 2])
}

@Test func onlyRetryableFailuresAreRetried() throws {
    let policy = RetryPolicy(maxAttempts: 5, jitter: 0)
    for failure in [LanguageModelError.refusal(.init(debugDescription: "no")) as Error,
                    GeneratedContent.ParsingError(line: 1, column: 1, message: "bad"), CancellationError()] {
        let clock = FakeClock()
        let (result, events) = attempt(policy, failures: [failure], clock: clock)
        #expect(events.isEmpty && clock.waits.isEmpty, "\(failure) must not be retried")
        guard case .failure(let thrown) = result else { Issue.record("\(failure) was swallowed"); continue }
        #expect("\(thrown)" == "\(failure)", "the failure passes through unchanged")
    }
    let clock = FakeClock()
    let (result, _) = attempt(policy, failures: [LanguageModelError.rateLimited(.init(debugDescription: "slow")),
                                                 LanguageModelError.timeout(.init(debugDescription: "late"))], clock: clock)
    #expect(try result.get() == 3)
    #expect(clock.waits == [1, 2])
}

@Test func theLastRetryableFailureIsRethrownWhenTheTriesRunOut() {
    let clock = FakeClock()
    let (result, events) = attempt(RetryPolicy(maxAttempts: 3, jitter: 0), failures: Array(repeating: Flaky(), count: 5), clock: clock)
    #expect(events.count == 2 && clock.waits == [1, 2])
    #expect(throws: Flaky.self) { try result.get() }
    let (once, none) = attempt(.none, failures: [Flaky()], clock: clock)
    #expect(none.isEmpty)
    #expect(throws: Flaky.self) { try once.get() }
}

@Test func aPolicyDecodesWithDefaultsAndRejectsImpossibleValues() throws {
    let decoded = try JSONDecoder().decode(RetryPolicy.self, from: Data(#"{"maxAttempts": 5, "jitter": 0.25}"#.utf8))
    #expect(decoded == RetryPolicy(maxAttempts: 5, jitter: 0.25))
    let roundTrip = try JSONDecoder().decode(RetryPolicy.self, from: JSONEncoder().encode(RetryPolicy.none))
    #expect(roundTrip == .none && roundTrip.maxAttempts == 1)
    for bad in [#"{"maxAttempts": 0}"#, #"{"jitter": 1.5}"#, #"{"multiplier": 0.5}"#, #"{"initialDelaySeconds": -1}"#] {
        #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(RetryPolicy.self, from: Data(bad.utf8)) }
    }
}

@Test func errorsClassifyThemselves() {
    #expect(FailureClass.of(LanguageModelError.rateLimited(.init(debugDescription: ""))) == .retryableInfrastructure)
    #expect(FailureClass.of(LanguageModelError.timeout(.init(debugDescription: ""))) == .retryableInfrastructure)
    let modelOutcomes = ["refusal", "guardrailViolation", "contextSizeExceeded"]
    for name in LanguageModelError.caseNames where name != "rateLimited" && name != "timeout" {
        let error = LanguageModelError(caseName: name, debugDescription: "x")!
        let expected: FailureClass = modelOutcomes.contains(name) ? .modelBehavior : .infrastructure
        #expect(error.failureClass == expected && error.domain == "LanguageModelError" && error.caseName == name)
        #expect(error.failureMessage == error.description)
    }
    #expect(LanguageModelSessionError.concurrentRequests.failureClass == .infrastructure)
    #expect(LanguageModelSessionError.concurrentRequests.domain == "LanguageModelSession.Error")
    let parsing = GeneratedContent.ParsingError(line: 2, column: 3, message: "expected ':'")
    #expect(parsing.failureClass == .modelBehavior && parsing.caseName == "parsingError")
    #expect(parsing.failureMessage == "line 2, column 3: expected ':'")
    #expect(ChildProcessError("cannot start x").failureClass == .infrastructure)
    #expect(FailureClass.of(CancellationError()) == .infrastructure, "an unknown error is infrastructure")
    #expect(Flaky().retryAfterSeconds == nil && LanguageModelError.rateLimited(.init(debugDescription: "")).retryAfterSeconds == nil)
}
