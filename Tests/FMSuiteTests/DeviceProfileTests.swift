import FMCore
import Foundation
import Testing
import TestSupport
@testable import FMSuite

/// docs/device-differences.md's profile table is `DeviceProfile.all`'s; on a mismatch the message holds it.
@Test func theDocsTableOfDeviceProfilesIsTheTable() throws {
    let doc = try String(contentsOf: suitePackageRoot.appendingPathComponent("docs/device-differences.md"),
                         encoding: .utf8)
    let marker = "<!-- device profiles: DeviceProfile.all writes this table; a test compares it -->\n"
    let section = try #require(doc.components(separatedBy: marker).dropFirst().first)
    let table = section.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("|") }
        .joined(separator: "\n")
    #expect(table == DeviceProfile.docsTable,
            "docs/device-differences.md's table should read:\n\(DeviceProfile.docsTable)")
}

/// A level's device lies under that level's options, and a lower level's device over a higher one's.
@Test func aDeviceSetsTheWindowAndGuidesUnderItsLevelsOptions() throws {
    let (suite, diagnostics) = SuiteLoader.load(text: """
    suite: s
    engine: scripted
    device: core-27
    options: { maxToolCalls: 3 }
    variants:
      - { name: phone }
      - { name: mac, device: core-advanced-27 }
      - { name: tight, device: core-advanced-27, options: { contextSize: 6000 } }
    cases:
      - { id: a, prompt: p, script: [ { text: x } ] }
      - { id: cloud, prompt: p, device: private-cloud-compute, script: [ { text: x } ] }
    """, file: "/tmp/s.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let settings = Dictionary(uniqueKeysWithValues: try #require(suite).expanded().map { ($0.id, $0.settings) })
    let phone = try #require(settings["s/a@phone"])
    #expect(phone.device == "core-27" && phone.contextSize == 4096 && phone.guideEnforcement == .device)
    #expect(phone.maxToolCalls == 3, "the suite's own options stay")
    #expect(settings["s/a@mac"]?.contextSize == 8192 && settings["s/a@mac"]?.device == "core-advanced-27")
    #expect(settings["s/a@tight"]?.contextSize == 6000, "the variant's options lie over its device")
    #expect(settings["s/a@tight"]?.device == "core-advanced-27")
    let cloud = try #require(settings["s/cloud@mac"])
    #expect(cloud.device == "private-cloud-compute" && cloud.contextSize == 32768 && cloud.guideEnforcement == .strict)
}

/// The command line's device lies over every case's own settings, device included.
@Test func overridesLieOverEveryCase() throws {
    let text = """
    suite: s
    engine: scripted
    variants:
      - { name: mac, device: core-advanced-27 }
    cases:
      - { id: a, prompt: p, options: { contextSize: 9000 }, script: [ { text: x } ] }
    """
    let profile = try #require(DeviceProfile.named("core-27"))
    let (suite, diagnostics, _) = SuiteLoader.read(text: text, file: "/tmp/s.yaml", overrides: profile.patch)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let settings = try #require(suite?.expanded().first?.settings)
    #expect(settings.device == "core-27" && settings.contextSize == 4096)
}

/// An unknown name is located, with the closest profile and the list.
@Test func anUnknownDeviceIsLocatedWithTheProfiles() throws {
    let (_, diagnostics) = SuiteLoader.load(text: """
    suite: s
    engine: scripted
    variants:
      - { name: v, device: core27 }
    cases:
      - { id: a, prompt: p, script: [ { text: x } ] }
    """, file: "/tmp/s.yaml")
    #expect(diagnostics.map(\.description) == [
        "/tmp/s.yaml:4:24: error: unknown device 'core27'; did you mean 'core-27'? the profiles are "
            + "core-26, core-27, core-advanced-27, private-cloud-compute (docs/device-differences.md)",
    ])
}

/// OS 26 has no tool-calling mode and no image input: a case asking for either under `core-26` is an
/// error at the case, under every variant that puts it there.
@Test func aCaseAsksOnlyForWhatItsDeviceHas() throws {
    let folder = try makeFolder(["s.yaml": """
    suite: s
    engine: scripted
    variants:
      - { name: old, device: core-26 }
      - { name: new, device: core-27 }
    cases:
      - id: mode
        prompt: p
        options: { toolCallingMode: required }
        script: [ { text: x } ]
      - id: picture
        prompt: p
        images: [ { file: a.png } ]
        script: [ { text: x } ]
    """])
    try onePixelPNG.write(to: folder.appendingPathComponent("a.png"))
    let file = folder.appendingPathComponent("s.yaml").path
    let (_, diagnostics) = SuiteLoader.load(file: file)
    #expect(diagnostics.map(\.description) == [
        "\(file):7:5: error: case 's/mode@old' sets toolCallingMode: required, which device core-26 does not have "
            + "(GenerationOptions.toolCallingMode is Foundation Models 27 API); drop it or use an OS 27 profile",
        "\(file):11:5: error: case 's/picture@old' attaches images, which device core-26 cannot take (image input "
            + "arrives with Foundation Models 27); drop them or use an OS 27 profile",
    ])
}

/// A device's guides are those its cases run under: `core-27` makes the device's schema refusals errors.
@Test func aDeviceWithDeviceGuidesMakesSchemaRefusalsErrors() throws {
    let text = """
    suite: s
    engine: scripted
    DEVICE
    generating: { schema: { type: object, properties: { a: { type: string } } } }
    cases:
      - { id: a, prompt: p, script: [ { text: "{}" } ] }
    """
    let strict = SuiteLoader.read(text: text.replacingOccurrences(of: "DEVICE", with: ""), file: "/tmp/s.yaml")
    #expect(strict.diagnostics.isEmpty && !strict.warnings.isEmpty)
    let phone = SuiteLoader.read(text: text.replacingOccurrences(of: "DEVICE", with: "device: core-27"),
                                 file: "/tmp/s.yaml")
    #expect(!phone.diagnostics.isEmpty && phone.diagnostics.allSatisfy {
        $0.message.contains("(this suite runs cases under guideEnforcement: device)")
    }, "\(phone.diagnostics)")
    let flagged = SuiteLoader.read(text: text.replacingOccurrences(of: "DEVICE", with: ""), file: "/tmp/s.yaml",
                                   overrides: try #require(DeviceProfile.named("core-27")).patch)
    #expect(!flagged.diagnostics.isEmpty
            && flagged.diagnostics.allSatisfy { $0.message.contains("(--device core-27)") })
}
