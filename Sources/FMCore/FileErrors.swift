import Foundation

/// Short, user-facing descriptions of file-system errors.
public enum FileErrors {
    /// One line for a file-system error: the operating system's reason when there is one, never a
    /// dump of the error's dictionary.
    public static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        let first = nsError.localizedDescription.split(separator: "\n").first.map(String.init) ?? ""
        return first.isEmpty ? "error \(nsError.code)" : first
    }
}
