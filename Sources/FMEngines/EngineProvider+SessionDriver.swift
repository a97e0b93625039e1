import FMSession

extension EngineProvider {
    /// fmeval runs the session: the attempt's engine under `EngineSessionDriver`. A provider whose
    /// backend owns its tool loop returns its own driver instead.
    public func sessionDriver(for attempt: AttemptContext) throws -> SessionDriver {
        EngineSessionDriver(engine: try engine(for: attempt))
    }
}
