import FMCore

/// A named device: what differs between the devices and OS versions that run Foundation Models, as far
/// as Apple's documentation and public measurements say. `device: NAME` (suite, variant or case) and
/// `fmeval run --device NAME` set a case's context window and guide enforcement from it, and the suite
/// reader refuses what the device does not have (a tool-calling mode or an image before OS 27).
///
/// Declared once in `DeviceProfile.all`: the reader, the suite JSON Schema, the flags' help and the
/// table in docs/device-differences.md (a test compares it) come from it.
public struct DeviceProfile: Hashable, Sendable {
    /// The name a suite or `--device` gives.
    public let name: String
    /// What the profile stands for, in a few words (the docs table's second column).
    public let device: String
    /// The context window in tokens (`SystemLanguageModel.contextSize` on that device).
    public let contextSize: Int
    /// Which guides the decoder enforces.
    public let guideEnforcement: GuideEnforcement
    /// Whether `GenerationOptions.toolCallingMode` exists there (Foundation Models 27 and later).
    public let hasToolCallingMode: Bool
    /// Whether a prompt can carry images there (Foundation Models 27 and later).
    public let hasImageInput: Bool
    /// Where the figures come from, and how sure they are (Markdown, for the docs table).
    public let sources: String

    /// Every profile, in the docs table's order.
    public static let all: [DeviceProfile] = [
        DeviceProfile(
            name: "core-26", device: "Apple's on-device model on iOS, iPadOS, macOS and visionOS 26, every device",
            contextSize: 4096, guideEnforcement: .device, hasToolCallingMode: false, hasImageInput: false,
            sources: "Apple: [Managing the context window](https://developer.apple.com/documentation/foundationmodels/"
                + "managing-the-context-window) (4096 per session); `ToolCallingMode` and image input are 27 API. "
                + "Guides: forum thread [812501](https://developer.apple.com/forums/thread/812501) (reproduced by "
                + "Apple on iOS 26.2)."),
        DeviceProfile(
            name: "core-27", device: "AFM 3 Core on OS 27 (`SystemLanguageModel.variant == .core3`)",
            contextSize: 4096, guideEnforcement: .device, hasToolCallingMode: true, hasImageInput: true,
            sources: "Apple staff, forum thread [832555](https://developer.apple.com/forums/thread/832555): "
                + "\"4K context size is the 3B Core\"; measured 4096 on an iPhone 15 Pro on iOS 27 (third party). "
                + "Whether the 26.2 `.anyOf` defect is fixed in 27 is not confirmed, so guides stay `device`."),
        DeviceProfile(
            name: "core-advanced-27", device: "AFM 3 Core Advanced on OS 27, \"newer devices\" (`.coreAdvanced3`)",
            contextSize: 8192, guideEnforcement: .device, hasToolCallingMode: true, hasImageInput: true,
            sources: "Apple: WWDC26 session [319](https://developer.apple.com/videos/play/wwdc2026/319) "
                + "(\"8192 on 27.0 (newer devices)\"); measured 8192 on M3 Pro and M5 Pro Macs on macOS 27 (apfel, "
                + "third party). Which chips count as newer is not published."),
        DeviceProfile(
            name: "private-cloud-compute", device: "`PrivateCloudComputeLanguageModel` (OS 27), Apple's server model",
            contextSize: 32768, guideEnforcement: .strict, hasToolCallingMode: true, hasImageInput: true,
            sources: "Apple: [Adding server-side intelligence with Private Cloud Compute](https://developer.apple.com/"
                + "documentation/foundationmodels/adding-server-side-intelligence-with-private-cloud-compute) "
                + "(32K; a daily quota with no published number). Its guide enforcement is not documented: fmeval "
                + "enforces every guide."),
    ]

    /// Every name, in order.
    public static var names: [String] { all.map(\.name) }

    /// The profile called `name`, if any.
    public static func named(_ name: String) -> DeviceProfile? { all.first { $0.name == name } }

    /// What the profile sets, as an options block: the window, the guides and its own name.
    public var patch: OptionsPatch {
        var patch = OptionsPatch()
        patch.contextSize = contextSize
        patch.guideEnforcement = guideEnforcement
        patch.device = name
        return patch
    }

    /// What `item` asks for that this device does not have, each a sentence saying what to change.
    public func problems(of item: ExpandedCase) -> [String] {
        var found: [String] = []
        if !hasToolCallingMode, let mode = item.options.toolCallingMode {
            found.append("sets toolCallingMode: \(mode.rawValue), which device \(name) does not have "
                + "(GenerationOptions.toolCallingMode is Foundation Models 27 API); drop it or use an OS 27 profile")
        }
        if !hasImageInput, !item.attachments.isEmpty {
            found.append("attaches images, which device \(name) cannot take (image input arrives with Foundation "
                + "Models 27); drop them or use an OS 27 profile")
        }
        return found
    }

    /// The docs table's row.
    var docsRow: String {
        let modes = hasToolCallingMode ? "yes" : "no"
        let images = hasImageInput ? "yes" : "no"
        return "| `\(name)` | \(device) | \(contextSize) | `\(guideEnforcement.rawValue)` | \(modes) | \(images) "
            + "| \(sources) |"
    }

    /// The docs table: a header and a row per profile.
    public static var docsTable: String {
        (["| profile | device | context | guides | toolCallingMode | images | sources |",
          "|---|---|---|---|---|---|---|"] + all.map(\.docsRow)).joined(separator: "\n")
    }
}
