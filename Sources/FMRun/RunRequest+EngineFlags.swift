extension RunRequest {
    /// The engine flags this request was given (`--engine`, `--model`, `--cassette`, `--engine-option`),
    /// for notes about cases they do not apply to.
    var engineFlagNames: [String] {
        [engine.map { _ in "--engine" }, model.map { _ in "--model" }, cassette.map { _ in "--cassette" },
         engineOptions.isEmpty ? nil : "--engine-option"].compactMap { $0 }
    }
}
