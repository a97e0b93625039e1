import FMCore
import FMResults

extension Fault {
    /// Runs `body`, turning a failed journal write into an infrastructure fault (other faults pass as they are).
    static func fromResults<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JournalWriteError {
            throw Fault.infrastructure(error.description)
        }
    }
}
