import Foundation
import Testing

/// `FMEVAL_PREFILL_KERNEL`, the prefill A/B switch, as the binary reads it.
@Suite struct PrefillKernelCLITests {
    @Test func anUnknownPrefillKernelIsRefusedNamingTheVariableAndItsValues() throws {
        for command in [["bench", "--repeat", "1"], ["respond", "--max-tokens", "1", "hi"], ["run", "suites/city-tools.yaml"]] {
            let run = try runFMEval(command, environment: ["FMEVAL_PREFILL_KERNEL": "gemm"])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("FMEVAL_PREFILL_KERNEL=gemm is not a prefill kernel; set it to tiles or rows, or unset it"),
                    "\(command): \(run.stderr)")
        }
    }
}
