import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A synchronous HTTP(S) POST over `URLSession`: the body arrives chunk by chunk on the caller's
/// thread (so streamed events are handled there), within one overall deadline.
// @unchecked Sendable: both stored properties are immutable; `URLSession` is thread-safe and `TaskTable`
// guards its dictionary with its lock.
public final class OpenAIHTTPClient: @unchecked Sendable {
    /// The outcome of one exchange whose status was 2xx.
    public struct Exchange: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Milliseconds from sending the request to the last body byte.
        public var roundTripMs: Double
    }

    /// The URL session's own limits, above any request's: each `post` enforces its own deadline.
    private static let sessionTimeoutSeconds = 7.0 * 24 * 3600

    private let session: URLSession
    private let tasks: TaskTable

    /// A client with its own URL session (no caches, no cookies).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = Self.sessionTimeoutSeconds
        configuration.timeoutIntervalForResource = Self.sessionTimeoutSeconds
        let table = TaskTable()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        tasks = table
        session = URLSession(configuration: configuration, delegate: SessionDelegate(tasks: table), delegateQueue: queue)
    }

    // Not `invalidateAndCancel`: every task `post` started has completed or been cancelled once already
    // (`settle`), and a second cancel of a task traps in the toolchain's task registry.
    deinit { session.finishTasksAndInvalidate() }

    /// POSTs `body` to `url` (`Authorization: Bearer apiKey` when a key is given), calls `onChunk` with
    /// each body chunk of a 2xx response, and returns once the body is complete. Throws `OpenAIError`
    /// for a non-2xx status (with `Retry-After` and a redacted body excerpt), a refused or reset
    /// connection, a redirect off `url`'s origin (never followed), a body (decompressed) over
    /// `maxResponseBytes`, or `timeoutSeconds` passing, a wall-clock deadline over connecting, headers,
    /// body and `onChunk`'s own work; errors thrown by `onChunk` cancel the request.
    public func post(url: URL, body: Data, apiKey: String?, timeoutSeconds: Double, maxResponseBytes: Int,
                     onChunk: (Data) throws -> Void) throws -> Exchange {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.sessionTimeoutSeconds)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json, text/event-stream", forHTTPHeaderField: "Accept")
        if let apiKey { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        let state = TaskState(origin: Self.origin(of: url), limit: maxResponseBytes)
        let task = session.dataTask(with: request)
        tasks.insert(state, for: task.taskIdentifier)
        defer { tasks.remove(task.taskIdentifier) }
        let started = DispatchTime.now()
        let deadline = started + .nanoseconds(Int(min(timeoutSeconds, 1e6) * 1e9))
        let timeout = OpenAIError(kind: .timeout, url: url.absoluteString, detail:
            "no complete response within \(timeoutSeconds) s; raise timeoutSeconds or check the server", apiKey: apiKey)
        task.resume()
        defer { Self.settle(task, state) }
        var errorBody = Data()
        while true {
            if state.signal.wait(timeout: deadline) == .timedOut { throw timeout }
            let (response, chunks, completion) = state.take()
            if state.isOverLimit {
                // The delegate cancelled the task when the limit was passed (`claimCancel`).
                throw OpenAIError(kind: .responseTooLarge(limit: maxResponseBytes), url: url.absoluteString, detail:
                    "the response grew past maxResponseBytes (\(maxResponseBytes) bytes, counted after decompression); "
                    + "raise the engine option maxResponseBytes if the server's answers are really this large", apiKey: apiKey)
            }
            let status = response?.statusCode ?? 0
            for chunk in chunks {
                if (200...299).contains(status) {
                    try onChunk(chunk)
                    if DispatchTime.now() >= deadline { throw timeout }
                } else if errorBody.count < 64 * 1024 {
                    errorBody.append(chunk)
                }
            }
            guard let completion else { continue }
            let roundTrip = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            if let error = completion.error {
                throw Self.transportError(error, url: url, received: status != 0, apiKey: apiKey)
            }
            if let target = state.refusedRedirect {
                throw OpenAIError(kind: .crossOriginRedirect, url: url.absoluteString, detail:
                    "the server redirected (HTTP \(status)) to another origin, \(target); fmeval follows redirects only within "
                    + "the base URL's origin, so the API key never goes elsewhere: set baseURL (--base-url) to the final address",
                                  apiKey: apiKey)
            }
            guard (200...299).contains(status) else {
                let retryAfter = OpenAIError.retryAfterSeconds(response?.value(forHTTPHeaderField: "Retry-After"))
                throw OpenAIError(kind: .httpStatus(status), url: url.absoluteString, detail: "HTTP \(status)",
                                  body: String(decoding: errorBody, as: UTF8.self), retryAfterSeconds: retryAfter, apiKey: apiKey)
            }
            return Exchange(status: status, roundTripMs: roundTrip)
        }
    }

    /// Ends `task` as `post` returns or throws (a timeout, `onChunk`'s error): cancels it unless it completed
    /// or a cancel is already claimed (the delegate's, past the body limit), so each task is cancelled at most
    /// once. The toolchain traps on a task cancelled twice: a cancel the delegate had queued used to meet the
    /// one `invalidateAndCancel` sent when the client was dropped.
    private static func settle(_ task: URLSessionDataTask, _ state: TaskState) {
        if !state.isComplete, state.claimCancel() { task.cancel() }
    }

    /// `scheme://host:port` of `url` (lower-cased scheme and host, the scheme's default port filled in),
    /// without user info, path or query.
    static func origin(of url: URL?) -> String {
        let scheme = url?.scheme?.lowercased() ?? ""
        let port = url?.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url?.host?.lowercased() ?? ""):\(port)"
    }

    /// The typed error for a URL session failure (`received`: whether a response status had arrived).
    static func transportError(_ error: Error, url: URL, received: Bool, apiKey: String?) -> OpenAIError {
        let code = (error as? URLError)?.code
        let kind: OpenAIError.Kind
        let detail: String
        switch code {
        case .cannotConnectToHost?:
            kind = .connectionRefused
            detail = "the connection was refused; is the server running at this address?"
        case .networkConnectionLost?, .badServerResponse?, .zeroByteResource?, .cannotParseResponse?:
            kind = .connectionReset
            detail = received ? "the connection closed before the response was complete" : "the connection was reset before any response"
        case .timedOut?:
            kind = .timeout
            detail = "the request timed out; raise timeoutSeconds or check the server"
        default:
            kind = received ? .connectionReset : .transport
            detail = (received ? "the connection closed before the response was complete: " : "the request failed: ")
                + error.localizedDescription
        }
        return OpenAIError(kind: kind, url: url.absoluteString, detail: detail, apiKey: apiKey)
    }
}

/// What the delegate has received for one task, handed to the waiting caller under a lock. The
/// delegate counts the body bytes as they arrive and cancels the task once they pass the limit, so a
/// caller slower than the network never queues more than the limit.
private final class TaskState: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is read and written under `lock`.
    struct Completion { var error: Error? }

    let signal = DispatchSemaphore(value: 0)
    /// The origin redirects may stay within.
    let origin: String
    private let limit: Int
    private let lock = NSLock()
    private var response: HTTPURLResponse?
    private var chunks: [Data] = []
    private var completion: Completion?
    private var receivedBytes = 0
    private var overLimit = false
    private var cancelClaimed = false
    private var redirectRefused: String?

    init(origin: String, limit: Int) {
        self.origin = origin
        self.limit = limit
    }

    /// Records the response; false (over the limit: cancel) when it declares a longer body than the limit.
    func receive(response: URLResponse) -> Bool {
        var keep = true
        update { state in
            state.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(state.limit) {
                state.overLimit = true
                state.cancelClaimed = true
                keep = false
            }
        }
        return keep
    }
    func complete(error: Error?) { update { $0.completion = Completion(error: error) } }
    func refuseRedirect(to target: String) { update { $0.redirectRefused = target } }

    /// Keeps `data` unless the body has passed the limit; returns false for the chunk that takes it past
    /// (cancel the task) and drops the chunks after it.
    func receive(data: Data) -> Bool {
        var keep = true
        update { state in
            guard !state.overLimit else { return }
            state.receivedBytes += data.count
            if state.receivedBytes > state.limit {
                state.overLimit = true
                state.chunks = []
                keep = false
            } else {
                state.chunks.append(data)
            }
        }
        return keep
    }

    /// True for the first caller only, who then cancels the task: the toolchain forgets a task once its
    /// cancellation has run, and a second `cancel()` then traps in its task registry (seen in CI when a
    /// cancel was queued for every chunk past the limit).
    func claimCancel() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !cancelClaimed
        cancelClaimed = true
        return first
    }

    /// Whether the task has completed (its delegate's last callback has run).
    var isComplete: Bool { lock.lock(); defer { lock.unlock() }; return completion != nil }
    /// Whether the body passed the limit.
    var isOverLimit: Bool { lock.lock(); defer { lock.unlock() }; return overLimit }
    /// The origin of a redirect that was not followed.
    var refusedRedirect: String? { lock.lock(); defer { lock.unlock() }; return redirectRefused }

    /// The response so far, the chunks not yet taken, and the completion when the task ended.
    func take() -> (HTTPURLResponse?, [Data], Completion?) {
        lock.lock()
        defer { lock.unlock() }
        let taken = chunks
        chunks = []
        return (response, taken, completion)
    }

    private func update(_ change: (TaskState) -> Void) {
        lock.lock()
        change(self)
        lock.unlock()
        signal.signal()
    }
}

/// Task identifier → state, shared by the client and its session delegate.
// @unchecked Sendable: `states` is read and written only under `lock`.
private final class TaskTable: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [Int: TaskState] = [:]

    func insert(_ state: TaskState, for id: Int) { lock.lock(); states[id] = state; lock.unlock() }
    func remove(_ id: Int) { lock.lock(); states[id] = nil; lock.unlock() }
    func state(_ id: Int) -> TaskState? { lock.lock(); defer { lock.unlock() }; return states[id] }
}

/// Routes URL session callbacks to each task's state.
///
/// It never calls back into URLSession from the delegate queue: the toolchain's `URLSessionTask.cancel()`
/// waits for the session's work queue, which keeps queueing body chunks meanwhile, so a callback that
/// cancelled in place stalled the delegate while a fast body (or a gzip bomb) piled up behind it (a 1 GiB
/// body or gzip bomb peaked at 1.1 GB; 46 MB since). Those calls go through `calls`, a queue of their own.
// @unchecked Sendable: its stored properties are immutable (`TaskTable` and DispatchQueue are thread-safe);
// URLSession calls it on its delegate queue, one callback at a time.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let tasks: TaskTable
    private let calls = DispatchQueue(label: "fmeval.openai.session-calls")

    init(tasks: TaskTable) { self.tasks = tasks }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let disposition: URLSession.ResponseDisposition =
            tasks.state(dataTask.taskIdentifier)?.receive(response: response) == false ? .cancel : .allow
        nonisolated(unsafe) let handler = completionHandler
        calls.async { handler(disposition) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = tasks.state(dataTask.taskIdentifier), !state.receive(data: data), state.claimCancel() else {
            return
        }
        calls.async { dataTask.cancel() }
    }

    /// Follows a redirect only within the request's origin; any other is refused (the redirect response
    /// becomes the task's answer) so that the Authorization header never reaches another host.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let state = tasks.state(task.taskIdentifier)
        let target = OpenAIHTTPClient.origin(of: request.url)
        let follow = state != nil && target == state?.origin
        if !follow { state?.refuseRedirect(to: target) }
        calls.async { completionHandler(follow ? request : nil) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        tasks.state(task.taskIdentifier)?.complete(error: error)
    }
}

