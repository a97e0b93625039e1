import FMCore
import Foundation
import Testing
@testable import FMEvaluate

/// Optional arguments, "only these arguments", string normalization, object/list answers and lengths.
@Suite struct ArgumentModifierTests {
    func allPass(_ call: ToolCallExpectation, _ arguments: GeneratedContent) -> Metric {
        let metrics = ToolCallsEvaluator(TrajectoryExpectation(ordered: [.call(call)])).evaluate(callsSubject([(call.name, arguments)]))
        return metric(metrics, "toolCalls.allPass")!
    }

    let optionalScale = ArgumentMatcher.modified(.oneOf(argumentName: "scale_type", allowedValues: ["major"]), ArgumentModifiers(isOptional: true))

    @Test func optionalArgumentMayBeAbsentButNotWrong() {
        let call = ToolCallExpectation("findChords", arguments: [.exact(argumentName: "key", value: "C"), optionalScale])
        #expect(allPass(call, ["key": "C"]).value == .passing)
        #expect(allPass(call, ["key": "C", "scale_type": "major"]).value == .passing)
        let wrong = allPass(call, ["key": "C", "scale_type": "C#"])
        #expect(wrong.value == .failing)
        #expect(wrong.rationale?.contains("scale_type: \"C#\" is none of [\"major\"]") == true, "\(wrong.rationale ?? "")")
        #expect(allPass(ToolCallExpectation("findChords", arguments: [.oneOf(argumentName: "scale_type", allowedValues: ["major"])]), ["key": "C"]).value == .failing)
    }

    @Test func onlyTheseArgumentsRejectsAnUndeclaredExtra() {
        let strict = ToolCallExpectation("findChords", arguments: [.exact(argumentName: "key", value: "C"), optionalScale], allowsAdditionalArguments: false)
        #expect(allPass(strict, ["key": "C", "scale_type": "major"]).value == .passing)
        let extra = allPass(strict, ["key": "C", "tempo": 120])
        #expect(extra.value == .failing)
        #expect(extra.rationale?.contains("/tempo: not an expected argument (allowsAdditionalArguments is false)") == true, "\(extra.rationale ?? "")")
        var lenient = strict
        lenient.allowsAdditionalArguments = true
        #expect(allPass(lenient, ["key": "C", "tempo": 120]).value == .passing)
    }

    @Test func onlyTheseArgumentsReachesIntoObjectsThatPointersName() {
        let call = ToolCallExpectation("ship", arguments: [.exact(argumentName: "/address/city", value: "Vienna")], allowsAdditionalArguments: false)
        #expect(allPass(call, ["address": ["city": "Vienna"]]).value == .passing)
        let nested = allPass(call, ["address": ["city": "Vienna", "zip": "1010"]])
        #expect(nested.value == .failing)
        #expect(nested.rationale?.contains("/address/zip: not an expected argument") == true, "\(nested.rationale ?? "")")
        // A matcher on the whole object accounts for everything inside it.
        let whole = ToolCallExpectation("ship", arguments: [.keyOnly(argumentName: "address")], allowsAdditionalArguments: false)
        #expect(allPass(whole, ["address": ["city": "Vienna", "zip": "1010"]]).value == .passing)
    }

    @Test func stringNormalizationIsExplicit() {
        let plain = ToolCallExpectation("weather", arguments: [.exact(argumentName: "city", value: "New York")])
        #expect(allPass(plain, ["city": "new-york"]).value == .failing)
        let caseOnly = ArgumentMatcher.modified(.exact(argumentName: "city", value: "New York"), ArgumentModifiers(ignoreCase: true))
        #expect(allPass(ToolCallExpectation("weather", arguments: [caseOnly]), ["city": "NEW YORK"]).value == .passing)
        #expect(allPass(ToolCallExpectation("weather", arguments: [caseOnly]), ["city": "new-york"]).value == .failing)
        let loose = ArgumentMatcher.modified(.exact(argumentName: "city", value: "New York"),
                                             ArgumentModifiers(ignoreCase: true, normalize: [.whitespace, .punctuation]))
        let passed = allPass(ToolCallExpectation("weather", arguments: [loose]), ["city": "new-york."])
        #expect(passed.value == .passing)
        let failed = allPass(ToolCallExpectation("weather", arguments: [loose]), ["city": "Newark"])
        #expect(failed.rationale?.contains("(compared as \"newark\")") == true, "\(failed.rationale ?? "")")
    }

    @Test func normalizationAppliesToEachStringMatcher() {
        let modifiers = ArgumentModifiers(ignoreCase: true, normalize: [.whitespace])
        let cases: [(ArgumentMatcher, Bool)] = [
            (.contains(argumentName: "q", substring: "SAN FRAN"), true),
            (.hasPrefix(argumentName: "q", prefix: "sanfr"), true),
            (.hasSuffix(argumentName: "q", suffix: "CISCO"), true),
            (.pattern(argumentName: "q", regex: "^sanfrancisco$"), true),
            (.oneOf(argumentName: "q", allowedValues: ["San  Francisco", "LA"]), true),
            (.hasSuffix(argumentName: "q", suffix: "Oakland"), false),
        ]
        for (matcher, expected) in cases {
            let verdict = allPass(ToolCallExpectation("search", arguments: [.modified(matcher, modifiers)]), ["q": "San Francisco"])
            #expect((verdict.value == .passing) == expected, "\(matcher.keyword)")
        }
        #expect(ArgumentModifiers(normalize: [.punctuation]).normalized("U.S.A. — “yes”, (ok)") == "USA — “yes” (ok)")
        #expect(ArgumentModifiers(normalize: [.whitespace]).normalized(" a \t b\nc ") == "abc")
    }

    /// BFCL's `standardize_string` removes `, . / - _ * ^` (and spaces) and reads `'` as `"`; nothing else.
    @Test(arguments: [
        ("x^2", "x**2", true), ("April 1, 2024", "april 1 2024", true), ("'quoted'", "\"quoted\"", true),
        ("new_york/NY", "New-York NY", true), ("C#", "C", false), ("ann@example.com", "annexample.com", false),
        ("why?", "why", false), ("(a)", "a", false),
    ])
    func punctuationIsBFCLsSet(value: String, answer: String, equal: Bool) {
        let modifiers = ArgumentModifiers(ignoreCase: true, normalize: [.whitespace, .punctuation])
        #expect(modifiers.matches(GeneratedContent(value), answer: GeneratedContent(answer)) == equal,
                "\(value) vs \(answer): \(modifiers.normalized(value)) / \(modifiers.normalized(answer))")
    }

    /// BFCL types nested list items (an int is not a float inside a list) but reads a top-level int as a float.
    @Test func listItemsAreTypedAsBFCLTypesThem() throws {
        let floats = ToolCallExpectation("mean", arguments: [.exact(argumentName: "values", value: try GeneratedContent(json: "[1.0, 3.0]"))])
        let ints = try GeneratedContent(json: #"{"values": [1, 3]}"#)
        let failed = allPass(floats, ints)
        #expect(failed.value == .failing)
        #expect(failed.rationale?.contains("expected [1.0,3.0], got [1,3] (equal values, but list items are typed") == true,
                "\(failed.rationale ?? "")")
        #expect(allPass(floats, try GeneratedContent(json: #"{"values": [1.0, 3.0]}"#)).value == .passing)
        #expect(allPass(floats, try GeneratedContent(json: #"{"values": [1e0, 3.00]}"#)).value == .passing)
        let nested = ToolCallExpectation("grid", arguments: [.exact(argumentName: "rows", value: try GeneratedContent(json: "[[1, 2]]"))])
        #expect(allPass(nested, try GeneratedContent(json: #"{"rows": [[1.0, 2]]}"#)).value == .failing)
        let scalar = ToolCallExpectation("scale", arguments: [.exact(argumentName: "factor", value: GeneratedContent(decimal: 2))])
        #expect(allPass(scalar, ["factor": 2]).value == .passing, "a top-level integer reads as the decimal it equals")
    }

    @Test func objectAndListAnswersAreWholeValuesNormalizedInside() {
        let answers: [GeneratedContent] = [["city": "Vienna", "country": "AT"], ["city": "Vienna"], ["Vienna", "AT"]]
        let matcher = ArgumentMatcher.modified(.oneOf(argumentName: "place", allowedValues: answers), ArgumentModifiers(ignoreCase: true))
        let call = ToolCallExpectation("weather", arguments: [matcher])
        #expect(allPass(call, ["place": ["country": "at", "city": "VIENNA"]]).value == .passing)
        #expect(allPass(call, ["place": ["city": "vienna"]]).value == .passing)
        #expect(allPass(call, ["place": ["vienna", "at"]]).value == .passing)
        #expect(allPass(call, ["place": ["at", "vienna"]]).value == .failing)
        let extraKey = allPass(call, ["place": ["city": "Vienna", "country": "AT", "district": "1"]])
        #expect(extraKey.value == .failing, "an object answer has no other keys")
        // Keys are not normalized: a differently cased key is a different key.
        #expect(allPass(call, ["place": ["City": "Vienna"]]).value == .failing)
    }

    @Test func objectAnswersMayAllowOtherKeysExplicitly() {
        let answer: GeneratedContent = ["city": "Vienna", "geo": ["country": "AT"]]
        let whole = ToolCallExpectation("weather", arguments: [.exact(argumentName: "place", value: answer)])
        let partial = ToolCallExpectation("weather", arguments: [.modified(.exact(argumentName: "place", value: answer),
                                                                           ArgumentModifiers(allowsAdditionalKeys: true))])
        let richer: GeneratedContent = ["place": ["city": "Vienna", "district": 1, "geo": ["country": "AT", "lat": 48.2]]]
        #expect(allPass(whole, richer).value == .failing)
        #expect(allPass(partial, richer).value == .passing, "other keys are allowed at every depth")
        #expect(allPass(partial, ["place": ["city": "Vienna", "geo": ["country": "DE"]]]).value == .failing)
        #expect(allPass(partial, ["place": ["city": "Vienna"]]).value == .failing, "every answer key is still required")
        let inList = ToolCallExpectation("weather", arguments: [.modified(.oneOf(argumentName: "places", allowedValues: [[["city": "Vienna"]]]),
                                                                          ArgumentModifiers(allowsAdditionalKeys: true))])
        #expect(allPass(inList, ["places": [["city": "Vienna", "zip": "1010"]]]).value == .passing)
        #expect(allPass(inList, ["places": [["city": "Vienna"], ["city": "Graz"]]]).value == .failing, "lists still match element by element")
        #expect(ArgumentMatcher.modified(.contains(argumentName: "q", substring: "x"), ArgumentModifiers(allowsAdditionalKeys: true)).problem?
            .contains("allowsAdditionalKeys applies to exact and oneOf") == true)
    }

    @Test func lengthChecksArrays() {
        let exactly = ToolCallExpectation("plan", arguments: [.length(argumentName: "stops", minimum: 2, maximum: 2)])
        #expect(allPass(exactly, ["stops": ["a", "b"]]).value == .passing)
        let long = allPass(exactly, ["stops": ["a", "b", "c"]])
        #expect(long.rationale?.contains("stops: 3 element(s), more than 2") == true)
        #expect(allPass(exactly, ["stops": ["a"]]).rationale?.contains("stops: 1 element(s), fewer than 2") == true)
        #expect(allPass(exactly, ["stops": "a, b"]).rationale?.contains("expected an array, got string") == true)
        let atLeast = ToolCallExpectation("plan", arguments: [.length(argumentName: "stops", minimum: 1, maximum: nil)])
        #expect(allPass(atLeast, ["stops": ["a", "b", "c", "d"]]).value == .passing)
    }

    @Test func matchersThatCannotWorkAreProblems() {
        let problems: [(ArgumentMatcher, String)] = [
            (.modified(.range(argumentName: "n", minimum: 1, maximum: 2), ArgumentModifiers(ignoreCase: true)), "ignoreCase and normalize apply to exact"),
            (.modified(.keyOnly(argumentName: "n"), ArgumentModifiers(isOptional: true)), "keyOnly with optional: true accepts anything"),
            (.length(argumentName: "n", minimum: 3, maximum: 1), "length minimum 3 is above maximum 1"),
            (.length(argumentName: "n", minimum: nil, maximum: nil), "length needs minimum, maximum or both"),
            (.length(argumentName: "n", minimum: -1, maximum: nil), "length minimum -1 must be 0 or more"),
        ]
        for (matcher, message) in problems {
            #expect(matcher.problem?.contains(message) == true, "\(matcher.problem ?? "no problem")")
        }
        #expect(ArgumentMatcher.modified(.exact(argumentName: "n", value: "x"), ArgumentModifiers(isOptional: true, normalize: [.punctuation])).problem == nil)
    }

    @Test func modifiersAndStrictCallsRoundTripThroughJSON() throws {
        let call = ToolCallExpectation("findChords", arguments: [
            optionalScale,
            .modified(.exact(argumentName: "key", value: "c"), ArgumentModifiers(ignoreCase: true, normalize: [.whitespace, .punctuation])),
            .length(argumentName: "notes", minimum: 3, maximum: nil),
        ], allowsAdditionalArguments: false)
        let data = try JSONEncoder().encode(call)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"optional\":true") && text.contains("\"allowsAdditionalArguments\":false"), "\(text)")
        #expect(try JSONDecoder().decode(ToolCallExpectation.self, from: data) == call)
        let viaContent = try ContentEncoder.jsonText(call)
        #expect(viaContent.contains(#"{"argument":"scale_type","oneOf":["major"],"optional":true}"#), "\(viaContent)")
        #expect(try JSONDecoder().decode(ToolCallExpectation.self, from: Data(viaContent.utf8)) == call)
        let lenient = try JSONEncoder().encode(ToolCallExpectation("a"))
        #expect(!String(decoding: lenient, as: UTF8.self).contains("allowsAdditionalArguments"))
        #expect(try JSONDecoder().decode(ToolCallExpectation.self, from: Data(#"{"name":"a"}"#.utf8)).allowsAdditionalArguments)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ArgumentMatcher.self, from: Data(#"{"argument":"a","optional":true}"#.utf8))
        }
    }
}
