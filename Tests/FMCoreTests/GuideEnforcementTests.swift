import Foundation
import Testing
@testable import FMCore

/// The guide-enforcement profile, loop-guard defaults and their request encoding.
@Suite struct GuideEnforcementTests {
    @Test func simplePatternsAreRunsOfQuantifiedCharacters() throws {
        for pattern in ["abc", "[A-Z]{3}-\\d+", "\\w+@\\w+\\.com", ".*", "(abc)", "^x?y*$"] {
            #expect(try RegexPattern(pattern).isSimple, "\(pattern)")
        }
        for pattern in ["a|b", "(ab)+", "(?:x|y){2}", "[a-z]+(\\.[a-z]+)*"] {
            #expect(try !RegexPattern(pattern).isSimple, "\(pattern)")
        }
    }

    @Test func loopGuardsDefaultPerProfile() {
        #expect(LoopGuards.defaults(for: .strict) == LoopGuards(maximumStringBytes: 200, maximumUnboundedItems: 3, maximumRecursionDepth: 1))
        #expect(LoopGuards.defaults(for: .device) == .off)
        var request = EngineRequest(transcript: Transcript(entries: []))
        #expect(request.enforcement == .strict && request.effectiveLoopGuards == .embeddedDefault)
        request.guideEnforcement = .device
        #expect(request.effectiveLoopGuards == .off)
        request.loopGuards = LoopGuards(maximumUnboundedItems: 5)
        #expect(request.effectiveLoopGuards.maximumUnboundedItems == 5 && request.effectiveLoopGuards.maximumStringBytes == nil)
    }

    @Test func aDefaultRequestEncodesAsBefore() throws {
        let request = EngineRequest(transcript: Transcript(entries: []))
        let text = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        #expect(!text.contains("guideEnforcement") && !text.contains("loopGuards"))
        var device = request
        device.guideEnforcement = .device
        let decoded = try JSONDecoder().decode(EngineRequest.self, from: try JSONEncoder().encode(device))
        #expect(decoded == device)
    }

    @Test func cutsRoundTripWithTheGuardKey() throws {
        let cut = GrammarLimitCut(path: "/tags", guard: .maximumUnboundedItems, limit: 3, tool: "search")
        let text = String(decoding: try JSONEncoder().encode(cut), as: UTF8.self)
        #expect(text.contains(#""guard":"maximumUnboundedItems""#))
        #expect(try JSONDecoder().decode(GrammarLimitCut.self, from: Data(text.utf8)) == cut)
        #expect(GrammarLimitCut(content: try GeneratedContent(json: text)) == cut)
        #expect(cut.summary == "/tags: maximumUnboundedItems 3 (tool search arguments)")
    }
}
