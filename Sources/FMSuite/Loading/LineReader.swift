import Foundation

/// Reads a text file a chunk at a time and hands on its lines, so a file of any size takes a chunk of memory.
///
/// Lines end at `\n`; a `\r` before it (CRLF) is not part of the line. Lines are numbered from 1.
struct LineReader {
    /// Why a line could not be read.
    enum Problem: Error {
        /// The line is not valid UTF-8.
        case notUTF8(line: Int)
        /// Reading the file failed part-way.
        case unreadable(String)
    }

    private static let chunkSize = 1 << 20

    /// Calls `body` with each line and its number, in order; stops at the first line that is not UTF-8.
    static func forEachLine(of url: URL, _ body: (Int, String) -> Void) throws {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch { throw Problem.unreadable("\(error)") }
        defer { try? handle.close() }
        var carry: [UInt8] = []
        var number = 0
        func emit(_ bytes: ArraySlice<UInt8>) throws {
            number += 1
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            guard let text = String(validating: line, as: UTF8.self) else { throw Problem.notUTF8(line: number) }
            body(number, text)
        }
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: chunkSize) ?? Data() } catch {
                throw Problem.unreadable("\(error)")
            }
            if chunk.isEmpty { break }
            carry.append(contentsOf: chunk)
            var start = carry.startIndex
            while let end = carry[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try emit(carry[start..<end])
                start = end + 1
            }
            carry.removeFirst(start)
        }
        if !carry.isEmpty { try emit(carry[...]) }
    }
}
