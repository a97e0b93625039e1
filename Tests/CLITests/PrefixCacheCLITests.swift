import Foundation
import Testing

/// The embedded engine's prefix cache budget from the command line and the environment: a bad value
/// stops before anything loads, with exit 2 and the option or variable named.
@Test func aBadPrefixCacheBudgetNamesItsFlagOrVariable() throws {
    let option = try runFMEval(["respond", "--engine-option", "prefixCacheMB=-1", "Hi"])
    #expect(option.status == 2)
    #expect(option.stderr.contains("respond: --engine-option prefixCacheMB: engine option 'prefixCacheMB' of engine 'embedded' must be a whole number of MiB from 0 to 1048576, not -1; use 0 to turn the cache off"),
            "\(option.stderr)")
    let fraction = try runFMEval(["respond", "--engine-option", "prefixCacheMB=1.5", "Hi"])
    #expect(fraction.status == 2)
    #expect(fraction.stderr.contains("--engine-option prefixCacheMB: engine option 'prefixCacheMB' of engine 'embedded' must be an integer, not number 1.5"),
            "\(fraction.stderr)")
    let variable = try runFMEval(["respond", "Hi"], environment: ["FMEVAL_PREFIX_CACHE_MB": "lots"])
    #expect(variable.status == 2)
    #expect(variable.stderr.contains("FMEVAL_PREFIX_CACHE_MB must be a whole number of MiB from 0 to 1048576, not 'lots'; unset it for the default (256) or use 0 to turn the cache off"),
            "\(variable.stderr)")
}

@Test func theBudgetOptionIsListedWithTheEmbeddedEngine() throws {
    let help = try runFMEval(["run", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("prefixCacheMB (integer)"), "\(help.stdout)")
}
