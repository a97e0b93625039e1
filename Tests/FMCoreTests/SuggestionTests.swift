import Testing
@testable import FMCore

@Test func suggestionFindsCloseTyposCaseInsensitively() {
    #expect(Suggestion.closest(to: "exepct", in: ["expect", "cases", "suite"]) == "expect")
    #expect(Suggestion.closest(to: "--JSON", in: ["--json", "--junit"]) == "--json")
    #expect(Suggestion.closest(to: "zzzzzz", in: ["expect", "cases"]) == nil)
    #expect(Suggestion.closest(to: "x", in: []) == nil)
}

@Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.editDistance("", "abc") == 3)
    #expect(Suggestion.editDistance("café", "cafe") == 1)
}
