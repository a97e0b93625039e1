import Testing

@Test func helpListsCommandsAndExitsZero() throws {
    let result = try runFMEval(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("COMMANDS:"))
    #expect(result.stdout.contains("help"))
}

@Test func unknownCommandIsInvalidInputWithSuggestion() throws {
    let result = try runFMEval(["hepl"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean 'help'"))
}
