import FMCore
import Foundation
import Testing
@testable import FMEngines

@Suite struct OpenAIErrorTests {
    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(OpenAIError.retryAfterSeconds("120", now: now) == 120)
        #expect(OpenAIError.retryAfterSeconds(" 1.5 ", now: now) == 1.5)
        #expect(OpenAIError.retryAfterSeconds("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == 30)
        #expect(OpenAIError.retryAfterSeconds("Sunday, 06-Nov-94 08:49:47 GMT", now: now) == 10)
        #expect(OpenAIError.retryAfterSeconds("Sun Nov  6 08:49:57 1994", now: now) == 20)
        #expect(OpenAIError.retryAfterSeconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(OpenAIError.retryAfterSeconds("-3", now: now) == nil)
        #expect(OpenAIError.retryAfterSeconds("soon", now: now) == nil)
        #expect(OpenAIError.retryAfterSeconds(nil, now: now) == nil)
    }

    @Test func theKeyIsRedactedAndTheExcerptBounded() {
        let body = "invalid key sk-secret-123 " + String(repeating: "x", count: 2000)
        let error = OpenAIError(kind: .httpStatus(401), url: "http://h/v1", detail: "HTTP 401 for sk-secret-123", body: body, apiKey: "sk-secret-123")
        #expect(!error.description.contains("sk-secret-123"))
        #expect(error.bodyExcerpt.hasPrefix("invalid key [redacted] "))
        #expect(error.bodyExcerpt.count == OpenAIError.excerptLimit)
    }

    @Test func retryabilityFollowsTheFault() {
        func fault(_ kind: OpenAIError.Kind) -> OpenAIError { OpenAIError(kind: kind, url: "u", detail: "d") }
        #expect(fault(.httpStatus(429)).isRetryable)
        #expect(fault(.httpStatus(503)).isRetryable)
        #expect(!fault(.httpStatus(400)).isRetryable)
        #expect(!fault(.httpStatus(401)).isRetryable)
        #expect(fault(.timeout).isRetryable && fault(.streamCut).isRetryable && fault(.connectionReset).isRetryable)
        #expect(!fault(.malformedResponse).isRetryable)
        #expect(fault(.httpStatus(429)).kindName == "http429")
    }

    @Test func settingsValidationNamesTheSetting() {
        var settings = OpenAIFixtures.settings()
        #expect(throws: Never.self) { try settings.validate() }
        settings.baseURL = URL(string: "ftp://host/v1")!
        #expect { try settings.validate() } throws: { ($0 as? Fault)?.message.contains("baseURL") == true }
        settings = OpenAIFixtures.settings()
        settings.maxConcurrency = 0
        #expect { try settings.validate() } throws: { ($0 as? Fault)?.message.contains("maxConcurrency") == true }
        settings = OpenAIFixtures.settings(extraBody: [1, 2])
        #expect { try settings.validate() } throws: { ($0 as? Fault)?.message.contains("extraBody") == true }
        settings = OpenAIFixtures.settings(timeout: 0)
        #expect { try settings.validate() } throws: { ($0 as? Fault)?.message.contains("timeoutSeconds") == true }
    }

    @Test func theKeyComesFromTheNamedVariableOnly() {
        var settings = OpenAIFixtures.settings()
        settings.apiKeyEnv = "FMEVAL_TEST_KEY"
        #expect(settings.apiKey(in: ["FMEVAL_TEST_KEY": "k1", "OPENAI_API_KEY": "k2"]) == "k1")
        #expect(settings.apiKey(in: ["FMEVAL_TEST_KEY": ""]) == nil)
        #expect(settings.endpoint.absoluteString == "http://127.0.0.1:9/v1/chat/completions")
    }
}
