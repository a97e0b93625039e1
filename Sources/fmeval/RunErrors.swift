import FMEngines
import FMRun

/// Runs `body`, turning the run pipeline's errors into the CLI's: invalid input (exit 2) or an
/// infrastructure fault (exit 3). `fmeval run` and `fmeval catalogue` share it.
func mappingRunErrors<Value>(_ body: () throws -> Value) throws -> Value {
    do {
        return try body()
    } catch let error as RunnerError {
        switch error {
        case .invalidInput(let message): throw CLIError.invalidInput(message)
        case .infrastructure(let message): throw CLIError.infrastructure(message)
        }
    } catch let error as EngineSetupError {
        throw error.isInvalidInput ? CLIError.invalidInput(error.message) : CLIError.infrastructure(error.message)
    }
}
