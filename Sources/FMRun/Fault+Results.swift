import FMResults

/// A run that cannot start or continue: bad input (exit 2) or infrastructure (exit 3).
public enum RunnerError: Error, CustomStringConvertible, Equatable {
    /// A suite, flag or file is wrong: exit 2.
    case invalidInput(String)
    /// An engine or the file system failed: exit 3.
    case infrastructure(String)

    /// The message.
    public var description: String {
        switch self {
        case .invalidInput(let message), .infrastructure(let message): return message
        }
    }
}

extension RunnerError {
    /// Runs `body`, turning a results file or journal `ReportError` (or a failed journal write) into the runner's error of the same class.
    static func fromResults<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReportError {
            throw error.isInfrastructure ? RunnerError.infrastructure(error.message) : RunnerError.invalidInput(error.message)
        } catch let error as JournalWriteError {
            throw RunnerError.infrastructure(error.description)
        }
    }
}
