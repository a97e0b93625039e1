import Testing
import FMCore
@testable import FMSuite

/// Schemas a suite writes, checked in the device's dialect (Foundation Models 27's GenerationSchema decoder:
/// keyNotFound for an object without title, required, x-order or additionalProperties; see
/// `DeviceSchemaDialect`): errors when the suite runs a case under `guideEnforcement: device` (or
/// `--guide-enforcement device`), one warning per schema otherwise.
@Suite struct DeviceSchemaSuiteTests {
    private func suite(enforcement: String?, variants: Bool = false) -> String {
        """
        suite: s
        engine: scripted
        \(enforcement.map { "options: { guideEnforcement: \($0) }" } ?? "")
        \(variants ? "variants:\n  - name: strict\n  - name: device\n    options: { guideEnforcement: device }" : "")
        cases:
          - id: a
            prompt: hi
            script: [ { structure: { name: Ada } } ]
            generating:
              schema:
                type: object
                properties: { name: { type: string } }
                required: [name]
          - id: b
            prompt: hi
            script: [ { text: ok } ]
        """
    }

    @Test func underDeviceEachRefusalIsALocatedError() throws {
        let (_, diagnostics, warnings) = SuiteLoader.read(text: suite(enforcement: "device"), file: "t.yaml")
        #expect(warnings.isEmpty)
        let lines = diagnostics.map(\.description)
        #expect(lines.count == 3, "\(lines)")
        for key in ["title", "x-order", "additionalProperties"] {
            let prefix = "t.yaml:11:9: error: generating.schema: "
            #expect(lines.contains { $0.hasPrefix(prefix) && $0.contains("without \"\(key)\"") }, "\(key): \(lines)")
        }
        #expect(lines.allSatisfy {
            $0.contains("keyNotFound") && $0.hasSuffix("(this suite runs cases under guideEnforcement: device)")
        })
    }

    @Test func aDeviceVariantMakesTheSuiteCheckedAsTheDeviceWould() throws {
        let (_, diagnostics, _) = SuiteLoader.read(text: suite(enforcement: nil, variants: true), file: "t.yaml")
        #expect(diagnostics.count == 3, "\(diagnostics)")
    }

    @Test func underStrictTheSchemaGetsOneWarningAndTheSuiteLoads() throws {
        for enforcement in [nil, "strict"] {
            let text = suite(enforcement: enforcement)
            let (loaded, diagnostics, warnings) = SuiteLoader.read(text: text, file: "t.yaml")
            #expect(loaded != nil && diagnostics.isEmpty, "\(diagnostics)")
            #expect(warnings.count == 1, "\(warnings)")
            let warning = try #require(warnings.first).warningDescription
            #expect(warning.hasPrefix(
                "t.yaml:11:9: warning: generating.schema: the device would refuse this schema (t.yaml:11:9: "))
            #expect(warning.contains("and 2 more") && warning.contains("is an error under device"), "\(warning)")
        }
    }

    @Test func theRunFlagDecidesOverTheSuite() throws {
        func enforcing(_ enforcement: GuideEnforcement) -> OptionsPatch {
            var overrides = OptionsPatch()
            overrides.guideEnforcement = enforcement
            return overrides
        }
        let device = SuiteLoader.read(text: suite(enforcement: "strict"), file: "t.yaml", overrides: enforcing(.device))
        #expect(device.diagnostics.count == 3)
        #expect(device.diagnostics.allSatisfy { $0.message.hasSuffix("(--guide-enforcement device)") })
        let strict = SuiteLoader.read(text: suite(enforcement: "device"), file: "t.yaml", overrides: enforcing(.strict))
        #expect(strict.diagnostics.isEmpty && strict.warnings.count == 1)
    }

    @Test func aSchemaTheDeviceReadsRaisesNothing() throws {
        let complete = ["type: object", "title: Person", "x-order: [name]", "additionalProperties: false"]
            .map { "        \($0)\n" }.joined()
        let text = suite(enforcement: "device").replacingOccurrences(of: "        type: object\n", with: complete)
        let (loaded, diagnostics, warnings) = SuiteLoader.read(text: text, file: "t.yaml")
        #expect(loaded != nil && diagnostics.isEmpty && warnings.isEmpty, "\(diagnostics) \(warnings)")
    }
}
