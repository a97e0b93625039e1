import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#else
private let streamSocket = SOCK_STREAM
private let sendFlags: Int32 = 0
#endif

/// A loopback HTTP/1.1 server for fault tests (POSIX sockets, 127.0.0.1, an ephemeral port): each
/// connection is answered on its own thread by the reply the handler picks for the request. Shared by the
/// engine's fault tests and the CLI's end-to-end tests (never part of a product).
public final class FaultServer: @unchecked Sendable {
    /// How to answer one request.
    public enum Reply: Sendable {
        /// A complete response; `delay` seconds pass before anything is written.
        case respond(status: Int, headers: [(String, String)] = [], body: String, delay: Double = 0)
        /// A `text/event-stream` response of these raw chunks, `pause` seconds apart, then the connection closes.
        case events([String], pause: Double = 0)
        /// Headers promising `declaredLength` bytes, then only `body`, then close.
        case shortBody(declaredLength: Int, body: String)
        /// Close the connection at once with a TCP reset.
        case reset
        /// A response of `status` and `headers` (no `Content-Length`: the close ends it) whose body is
        /// `prefix`, `filler` written `count` times, then `suffix`, so that huge bodies are never built in
        /// memory; the connection stays open `hold` seconds more (or until the client goes or the server stops).
        case bulk(status: Int = 200, headers: [(String, String)], prefix: [UInt8], filler: [UInt8] = [], count: Int = 0,
                  suffix: [UInt8] = [], hold: Double = 0)
    }

    /// One received request.
    public struct Request: Sendable {
        /// The request line and headers.
        public let head: String
        /// The body text.
        public let body: String
        /// How many requests the server received before this one.
        public var index = 0

        /// The value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var received: [Request] = []
    private var active = 0
    private var peak = 0
    private var stopped = false

    /// Starts listening; `handler` picks each reply.
    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The API root to give the engine.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Every request received so far.
    public var requests: [Request] { lock.lock(); defer { lock.unlock() }; return received }

    /// The most connections answered at once.
    public var peakConcurrency: Int { lock.lock(); defer { lock.unlock() }; return peak }

    /// Stops accepting; connections still being answered finish on their own.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A port on 127.0.0.1 where nothing listens (bound, then closed).
    public static func closedPort() throws -> UInt16 {
        let server = try FaultServer { _ in .reset }
        server.stop()
        return server.port
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if isStopped { return }
                continue
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        #if !os(Linux)
        var noSignal: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        lock.lock()
        active += 1
        peak = max(peak, active)
        lock.unlock()
        defer {
            lock.lock()
            active -= 1
            lock.unlock()
        }
        guard var request = read(connection) else { close(connection); return }
        lock.lock()
        request.index = received.count
        received.append(request)
        lock.unlock()
        switch handler(request) {
        case .respond(let status, let headers, let body, let delay):
            pause(delay)
            var head = "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            write(connection, head + "\r\n" + body)
        case .events(let chunks, let gap):
            write(connection, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
            for chunk in chunks {
                write(connection, chunk)
                pause(gap)
            }
        case .shortBody(let declaredLength, let body):
            write(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declaredLength)\r\nConnection: close\r\n\r\n" + body)
        case .bulk(let status, let headers, let prefix, let filler, let count, let suffix, let hold):
            var head = "HTTP/1.1 \(status) Status\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            var open = write(connection, Array((head + "\r\n").utf8)) && write(connection, prefix)
            var written = 0
            while open && written < count {
                open = write(connection, filler)
                written += 1
            }
            if open && write(connection, suffix) { pause(hold) }
        case .reset:
            var resetOnClose = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &resetOnClose, socklen_t(MemoryLayout<linger>.size))
        }
        close(connection)
    }

    /// Reads the head and a `Content-Length` body; nil when the peer closed first.
    private func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var bodyLength = 0
        while true {
            if let end = headEnd, bytes.count >= end + bodyLength {
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                return Request(head: head, body: String(decoding: bytes[(end + 4)..<(end + bodyLength)], as: UTF8.self))
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
            if headEnd == nil, let range = findHeadEnd(bytes) {
                headEnd = range
                let head = String(decoding: bytes[..<range], as: UTF8.self)
                let length = Request(head: head, body: "").header("Content-Length").flatMap { Int($0) } ?? 0
                bodyLength = 4 + length
            }
        }
    }

    private func findHeadEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func write(_ connection: Int32, _ text: String) {
        write(connection, Array(text.utf8))
    }

    /// Writes all of `bytes`; false once the peer has gone.
    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, sendFlags) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Sleeps `seconds` in small steps, ending early once the server is stopped.
    private func pause(_ seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end && !isStopped { usleep(20_000) }
    }
}
