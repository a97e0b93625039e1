import Testing
@testable import FMCore

@Test func versionIsSemantic() {
    #expect(FMEvalVersion.current.split(separator: ".").count == 3)
}
