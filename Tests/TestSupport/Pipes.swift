#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Everything left in `handle` until end of file, retrying reads a signal interrupts: Foundation's
/// `readDataToEndOfFile` stops the whole test process on EINTR, which a child's exit can cause while the
/// machine is busy.
public func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}
