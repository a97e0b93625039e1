import FMCore
import Foundation
import Testing
@testable import FMEngines

/// The guide-enforcement profiles and loop-guard reports on the real model (greedy, so exact).
/// Run optimized: `swift test -c release -Xswiftc -enable-testing --filter EmbeddedGuideEnforcement`.
@Suite(.serialized)
struct EmbeddedGuideEnforcementTests {
    static let cities = ["London", "New York", "Paris"]

    private func respond(_ prompt: String, schema: GenerationSchema? = nil, tools: [ToolDefinition] = [],
                         options: GenerationOptions, enforcement: GuideEnforcement?,
                         loopGuards: LoopGuards? = nil) throws -> EngineResponse {
        let transcript = Transcript(entries: [.prompt(.init(id: "p", segments: [.text(.init(id: "s", content: prompt))]))])
        let request = EngineRequest(transcript: transcript, options: options, schema: schema, tools: tools,
                                    guideEnforcement: enforcement, loopGuards: loopGuards)
        return try EmbeddedEngineTests.engine.get().respond(to: request) { _ in }
    }

    @Test func deviceLeavesTheToolArgumentAnyOfUnenforced() throws {
        let schema = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["city"],"required":["city"],"properties":{"city":{"anyOf":[
             {"type":"string","enum":["London"]},{"type":"string","enum":["New York"]},{"type":"string","enum":["Paris"]}]}}}
            """)
        let tool = ToolDefinition(name: "getCityInfo", description: "Get the weather in a city.", parameters: schema)
        let options = GenerationOptions(maximumResponseTokens: 200, toolCallingMode: .required)
        let strict = try respond("What's the weather in Beijing?", tools: [tool], options: options, enforcement: .strict)
        let device = try respond("What's the weather in Beijing?", tools: [tool], options: options, enforcement: .device)
        let strictCity = try #require(strict.toolCalls.first?.arguments["city"]?.stringValue)
        let deviceCity = try #require(device.toolCalls.first?.arguments["city"]?.stringValue)
        #expect(Self.cities.contains(strictCity))
        #expect(!Self.cities.contains(deviceCity), "device enforced the anyOf: \(deviceCity)")
        #expect(device.toolCalls.first?.name == "getCityInfo")
        let paris = try respond("What's the weather in Paris?", tools: [tool], options: options, enforcement: .device)
        #expect(paris.toolCalls.first?.arguments["city"]?.stringValue == "Paris")
    }

    @Test func strictReportsTheUnboundedArrayCutAndDeviceHasNoGuards() throws {
        let schema = try GenerationSchema(json: """
            {"type":"object","additionalProperties":false,"x-order":["fruits"],"required":["fruits"],
             "properties":{"fruits":{"type":"array","items":{"type":"string"}}}}
            """)
        let options = GenerationOptions(maximumResponseTokens: 120)
        let prompt = "Give me a list of fruits: apple, pear, plum, peach and fig."
        let strict = try respond(prompt, schema: schema, options: options, enforcement: nil)
        let fruits = try #require(strict.content?["fruits"]?.arrayValue, "\(strict.text)")
        #expect(fruits.count == 3)
        #expect(strict.grammarLimits == [GrammarLimitCut(path: "/fruits", guard: .maximumUnboundedItems, limit: 3)])
        let device = try respond(prompt, schema: schema, options: options, enforcement: .device)
        #expect(device.grammarLimits == nil)
        #expect((device.content?["fruits"]?.arrayValue?.count ?? 0) > 3 || device.finishReason == .length, "\(device.text)")
        let guarded = try respond(prompt, schema: schema, options: options, enforcement: .device,
                                  loopGuards: LoopGuards(maximumUnboundedItems: 5))
        #expect(guarded.content?["fruits"]?.arrayValue?.count == 5, "\(guarded.text)")
        #expect(guarded.grammarLimits == [GrammarLimitCut(path: "/fruits", guard: .maximumUnboundedItems, limit: 5)])
    }

    @Test func deviceRefusesANonSimplePatternBeforeGenerating() throws {
        let schema = try GenerationSchema(json: #"{"type":"string","pattern":"(INC|REQ)-\\d{4}"}"#)
        let options = GenerationOptions(maximumResponseTokens: 16)
        let strict = try respond("Open a ticket id.", schema: schema, options: options, enforcement: .strict)
        #expect(strict.content?.stringValue.map { $0.hasPrefix("INC-") || $0.hasPrefix("REQ-") } == true, "\(strict.text)")
        #expect(throws: LanguageModelError.self) {
            try respond("Open a ticket id.", schema: schema, options: options, enforcement: .device)
        }
    }
}
