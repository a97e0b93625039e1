import FMCore
import FMSuite

/// `--device PROFILE` and `--guide-enforcement device|strict`: settings the command line lays over every
/// case's own (`Suite.overrides`), declared once for the commands that take them.
enum SettingOverrideFlags {
    static let device = Flag("--device", .value("PROFILE"), help: """
        run every case as on this device, over the suites' own `device:` and the
        window and guides they set: \(DeviceProfile.names.joined(separator: ", "))
        (docs/device-differences.md)
        """)
    static let guideEnforcement = Flag("--guide-enforcement", .value("device|strict"), help: """
        which guides the grammar enforces, over every suite's `guideEnforcement` (and
        --device's): strict (every guide; default) or device (what the on-device decoder
        enforces, no loop guards); see docs/device-differences.md
        """)

    /// The profile `--device` names, if given; an unknown name is invalid input naming the profiles.
    static func profile(_ args: Arguments, command: String) throws -> DeviceProfile? {
        guard let name = args.value(device) else { return nil }
        guard let profile = DeviceProfile.named(name) else {
            let hint = Suggestion.closest(to: name, in: DeviceProfile.names).map { "did you mean '\($0)'? " } ?? ""
            throw Fault.invalidInput("\(command): --device \(name) is not a device profile; \(hint)give one of "
                + DeviceProfile.names.joined(separator: ", "))
        }
        return profile
    }

    /// The settings `--device` and `--guide-enforcement` lay over every case (`--guide-enforcement` last).
    static func parse(_ args: Arguments, command: String) throws -> OptionsPatch {
        var overrides = try profile(args, command: command)?.patch ?? OptionsPatch()
        if let name = args.value(guideEnforcement) {
            guard let enforcement = GuideEnforcement(rawValue: name) else {
                throw Fault.invalidInput("\(command): --guide-enforcement must be device or strict, not '\(name)'")
            }
            overrides.guideEnforcement = enforcement
        }
        return overrides
    }
}
