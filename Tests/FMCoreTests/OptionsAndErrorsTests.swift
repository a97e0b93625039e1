import Foundation
import Testing
@testable import FMCore

@Test func optionsRoundTripEverySamplingMode() throws {
    let all: [GenerationOptions] = [
        GenerationOptions(),
        GenerationOptions(sampling: .greedy, maximumResponseTokens: 128, toolCallingMode: .required),
        GenerationOptions(sampling: .random(top: 40, seed: 42), temperature: 0.7),
        GenerationOptions(sampling: .random(probabilityThreshold: 0.9), toolCallingMode: .disallowed),
    ]
    for options in all {
        #expect(try GenerationOptions(content: options.content) == options)
        #expect(try JSONDecoder().decode(GenerationOptions.self, from: try JSONEncoder().encode(options)) == options)
    }
    #expect(GenerationOptions().content.jsonString == "{}")
    #expect(all[2].content.jsonString == #"{"sampling":{"topK":40,"seed":42},"temperature":0.7}"#)
}

@Test(arguments: [
    (#"{"sampling": "beam"}"#, "/sampling", "unknown sampling"),
    (#"{"sampling": {"topK": 0}}"#, "/sampling/topK", "at least 1"),
    (#"{"sampling": {"topK": 3, "probabilityThreshold": 0.5}}"#, "/sampling", "exactly one"),
    (#"{"sampling": {"probabilityThreshold": 1.5}}"#, "/sampling/probabilityThreshold", "(0, 1]"),
    (#"{"temperature": -1}"#, "/temperature", "≥ 0"),
    (#"{"maximumResponseTokens": 1.5}"#, "/maximumResponseTokens", "non-negative integer"),
    (#"{"toolCallingMode": "sometimes"}"#, "/toolCallingMode", "allowed, required or disallowed"),
    (#"{"temprature": 1}"#, "/temprature", "unknown key"),
])
func badOptionsNameTheField(json: String, path: String, fragment: String) throws {
    do {
        _ = try GenerationOptions(content: try GeneratedContent(json: json))
        Issue.record("accepted \(json)")
    } catch let error as JSONFormatError {
        #expect(error.path == path)
        #expect(error.message.contains(fragment), "\(error)")
    }
}

@Test func languageModelErrorsHaveStableNamesAndSentences() throws {
    for name in LanguageModelError.caseNames {
        let error = try #require(LanguageModelError(caseName: name, debugDescription: "detail"))
        #expect(error.caseName == name)
        #expect(error.context.debugDescription == "detail")
        #expect(error.description.hasSuffix(": detail"))
        #expect(try JSONDecoder().decode(LanguageModelError.self, from: try JSONEncoder().encode(error)) == error)
    }
    #expect(LanguageModelError(caseName: "exceededContextWindowSize", debugDescription: "") == nil)
    #expect(LanguageModelError.timeout(.init(debugDescription: "")).description == "The response timed out.")
    #expect(Set(LanguageModelError.caseNames).count == 9)
}

@Test func sessionErrorsDescribeWhatToDo() {
    #expect(LanguageModelSessionError.concurrentRequests.description.contains("wait"))
    #expect(LanguageModelSessionError.transcriptMutationWhileResponding.caseName == "transcriptMutationWhileResponding")
}

@Test func usageAddsFieldByField() throws {
    var total = Usage.zero
    total += Usage(inputTokens: 10, cachedInputTokens: 4, outputTokens: 5, reasoningTokens: 1)
    total += Usage(inputTokens: 1, outputTokens: 2)
    #expect(total == Usage(inputTokens: 11, cachedInputTokens: 4, outputTokens: 7, reasoningTokens: 1))
    #expect(total.totalTokens == 18)
    #expect(try JSONDecoder().decode(Usage.self, from: try JSONEncoder().encode(total)) == total)
}
