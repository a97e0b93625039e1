import FMCore

/// What the device's GenerationSchema decoder refuses in one schema the suite writes (a `generating`
/// schema or a tool's `arguments`), each problem at its line and column.
struct DeviceRefusal {
    /// Where the schema is written (the mapping, or the first line of its file).
    var schema: SourceLocation
    /// What the schema is, as messages name it (`generating.schema`, `tool 'x' arguments`).
    var what: String
    /// Every refusal, located at the value its JSON pointer names (the message without `what`).
    var problems: [Diagnostic]
}

extension SuiteReader {
    /// Records what `DeviceSchemaDialect` refuses in `content`, read from `source` (a schema used twice
    /// is recorded once).
    func noteDeviceRefusals(of content: GeneratedContent, in source: YAMLNode, _ what: String) {
        guard !deviceRefusals.contains(where: { $0.schema == source.location }) else { return }
        let problems = DeviceSchemaDialect.problems(in: content).map {
            Diagnostic(SuiteReader.node(at: $0.path, in: source).location, $0.message)
        }
        guard !problems.isEmpty else { return }
        deviceRefusals.append(DeviceRefusal(schema: source.location, what: what, problems: problems))
    }

    /// A suite that runs any case under `guideEnforcement: device` (its own, a device profile's, or the
    /// command line's) must write schemas the device decodes: each refusal is an error. Otherwise each schema
    /// the device would refuse gets one warning, since the suite runs here but would not on a device.
    func reportDeviceRefusals(_ suite: Suite) {
        guard !deviceRefusals.isEmpty else { return }
        let onDevice = runsOnDevice
        let why = overrides.guideEnforcement == .device
            ? (overrides.device.map { "--device \($0)" } ?? "--guide-enforcement device")
            : "this suite runs cases under guideEnforcement: device"
        for refusal in deviceRefusals {
            if onDevice {
                diagnostics += refusal.problems.map {
                    Diagnostic($0.location, "\(refusal.what): \($0.message) (\(why))")
                }
                continue
            }
            let first = refusal.problems[0]
            let more = refusal.problems.count > 1 ? " and \(refusal.problems.count - 1) more" : ""
            warnings.append(Diagnostic(refusal.schema, "\(refusal.what): the device would refuse this schema "
                + "(\(first.location): \(first.message)\(more)); "
                + "it runs here under guideEnforcement strict and is an error under device"))
        }
    }
}
