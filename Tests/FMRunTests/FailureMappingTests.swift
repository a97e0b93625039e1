import Foundation
import Testing
import FMCore
import FMEngines
import FMEvaluate
import FMResults
@testable import FMRun

/// A clock that never waits and always draws 0 (so each wait is the whole backoff); it counts waits.
final class InstantClock: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []

    /// The waits asked for, in order.
    var waits: [Double] { lock.withLock { recorded } }

    /// The clock to inject.
    var clock: RetryClock {
        RetryClock(sleep: { seconds in self.lock.withLock { self.recorded.append(seconds) } }, random: { 0 })
    }
}

/// A scripted runner whose retries wait on `clock`.
func retryingRunner(_ policy: RetryPolicy, clock: InstantClock) throws -> Runner {
    try scriptedRunner(RunnerOptions(retry: policy, retryClock: clock.clock))
}

@Test func everyFailureClassMapsToOneOutcome() {
    let model = AttemptError(domain: "SessionError", caseName: "toolCallLimitExceeded", message: "", failureClass: .modelBehavior)
    let retryable = AttemptError(domain: "LanguageModelError", caseName: "rateLimited", message: "", failureClass: .retryableInfrastructure)
    let infrastructure = AttemptError(domain: "ReplayMiss", caseName: "cassetteMiss", message: "", failureClass: .infrastructure)
    let legacy = AttemptError(domain: "EngineError", caseName: "engineError", message: "")
    #expect(FailureDisposition.of(model, covered: false) == .scoreOnMerits)
    #expect(FailureDisposition.of(retryable, covered: false) == .error)
    #expect(FailureDisposition.of(infrastructure, covered: false) == .error)
    #expect(FailureDisposition.of(legacy, covered: false) == .error, "an error recorded without a class is infrastructure")
    for error in [model, retryable, infrastructure, legacy] {
        #expect(FailureDisposition.of(error, covered: true) == .scoreOnMerits, "a covered error is scored")
    }
    let anyError = [Expectation.error(ErrorExpectation())]
    #expect(FailureDisposition.isCovered(model, by: anyError))
    for fault in [retryable, infrastructure, legacy] {
        #expect(!FailureDisposition.isCovered(fault, by: anyError), "an unnamed error is never met by \(fault.caseName)")
    }
    #expect(FailureDisposition.isCovered(retryable, by: [.error(ErrorExpectation(caseName: "rateLimited"))]))
    #expect(FailureDisposition.isCovered(infrastructure, by: [.error(ErrorExpectation(caseName: "cassetteMiss"))]))
    #expect(!FailureDisposition.isCovered(retryable, by: [.error(ErrorExpectation(caseName: "refusal"))]))
    #expect(!FailureDisposition.isCovered(model, by: [.not(.error(ErrorExpectation()))]))
    #expect(FailureDisposition.retryPolicy(RetryPolicy(), expectations: [.error(ErrorExpectation(caseName: "timeout"))]) == .none)
    for kept in [anyError, [.error(ErrorExpectation(caseName: "refusal"))], []] {
        #expect(FailureDisposition.retryPolicy(RetryPolicy(maxAttempts: 4), expectations: kept).maxAttempts == 4)
    }
}

@Test func attemptsEndAsTheirErrorsClassSays() throws {
    let clock = InstantClock()
    let results = try retryingRunner(RetryPolicy(maxAttempts: 3, initialDelaySeconds: 1, multiplier: 2), clock: clock).run(try cases("""
    suite: s
    engine: scripted
    tools:
      - { name: look, arguments: { type: object, properties: { q: { type: string } } }, output: seen }
    cases:
      - id: cut-structure
        prompt: hi
        generating: { schema: { type: object, properties: { a: { type: string } } } }
        options: { constrained: false }
        script: [ { text: "{\\"a\\": " } ]
        expect: { equals: { a: x } }
      - id: endless-tools
        prompt: hi
        options: { maxToolCalls: 1 }
        script: [ { toolCalls: [ { name: look, arguments: { q: a } } ] }, { toolCalls: [ { name: look, arguments: { q: b } } ] } ]
        expect: { contains: x }
      - { id: refused, prompt: hi, script: [ { error: refusal } ], expect: { contains: x } }
      - { id: rate-limited, prompt: hi, script: [ { error: rateLimited, message: slow down } ], expect: { contains: x } }
      - { id: expects-rate-limit, prompt: hi, script: [ { error: rateLimited } ], expect: { error: rateLimited } }
      - { id: any-error-meets-a-fault, prompt: hi, script: [ { error: unsupportedCapability } ], expect: { error: {} } }
      - { id: any-error-meets-a-refusal, prompt: hi, script: [ { error: refusal } ], expect: { error: {} } }
      - { id: broken-evaluator, prompt: hi, script: [ { text: x } ], expect: { command: [fmeval-no-such-evaluator-xyz] } }
    """))
    let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.caseID, $0.attempts[0]) })
    let expected: [String: (AttemptOutcome, String, FailureClass)] = [
        "cut-structure": (.failed, "parsingError", .modelBehavior),
        "endless-tools": (.failed, "toolCallLimitExceeded", .modelBehavior),
        "refused": (.failed, "refusal", .modelBehavior),
        "rate-limited": (.error, "rateLimited", .retryableInfrastructure),
        "expects-rate-limit": (.passed, "rateLimited", .retryableInfrastructure),
        "any-error-meets-a-fault": (.error, "unsupportedCapability", .infrastructure),
        "any-error-meets-a-refusal": (.passed, "refusal", .modelBehavior),
        "broken-evaluator": (.error, "evaluatorFailed", .infrastructure),
    ]
    for (id, (status, caseName, failureClass)) in expected {
        let attempt = try #require(byID[id], "\(id)")
        #expect(attempt.status == status, "\(id): \(attempt.metrics)")
        #expect(attempt.error?.caseName == caseName, "\(id)")
        #expect(attempt.error?.failureClass == failureClass, "\(id)")
    }
    #expect(byID["rate-limited"]?.retries == 2, "retried twice, then an error")
    #expect(byID["expects-rate-limit"]?.retries == nil, "an expected error is not retried")
    #expect(byID["refused"]?.retries == nil && byID["cut-structure"]?.retries == nil)
    #expect(clock.waits == [1, 2], "only the retryable attempt waited, with the policy's backoff")
    #expect(byID["cut-structure"]?.metrics.first?.name == "response", "model behaviour fails with a response metric first")
}

@Test func classAndRetriesAreOptionalInResultsJSON() throws {
    var attempt = AttemptResult(index: 0, status: .error, transcript: Transcript(),
                                error: AttemptError(domain: "LanguageModelError", caseName: "timeout", message: "late",
                                                    failureClass: .retryableInfrastructure), retries: 2)
    let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(attempt)) as? [String: Any]
    #expect(encoded?["retries"] as? Int == 2)
    #expect((encoded?["error"] as? [String: Any])?["class"] as? String == "retryableInfrastructure")
    let decoded = try JSONDecoder().decode(AttemptResult.self, from: JSONEncoder().encode(attempt))
    #expect(decoded.retries == 2 && decoded.error == attempt.error)
    attempt.retries = nil
    attempt.error?.failureClass = nil
    let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(attempt)) as? [String: Any]
    #expect(plain?["retries"] == nil && (plain?["error"] as? [String: Any])?["class"] == nil, "nothing new is written when there is nothing to say")
    let older = #"{"domain": "EngineError", "caseName": "engineError", "message": "boom", "expected": false}"#
    let legacy = try JSONDecoder().decode(AttemptError.self, from: Data(older.utf8))
    #expect(legacy.failureClass == nil && legacy.message == "boom")
    #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(AttemptError.self, from: Data(#"{"domain": "x", "caseName": "y", "message": "z", "expected": false, "class": "cosmic"}"#.utf8))
    }
}
