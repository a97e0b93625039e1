import FMCore
import FaultServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Several servers behind one address, as a load balancer puts them (docs/engines.md, "Model capacity
/// behind the API"): a loopback proxy that hands each request to the next upstream in turn, unchanged,
/// and returns the upstream's whole answer (no streaming, which the pool test does not use).
final class RoundRobinProxy {
    /// The upstreams' roots, e.g. `http://127.0.0.1:PORT`.
    let upstreams: [String]
    private let server: FaultServer
    private let counts: Locked<[Int]>

    /// A proxy in front of `upstreams`.
    init(upstreams: [String]) throws {
        self.upstreams = upstreams
        let counts = Locked([Int](repeating: 0, count: upstreams.count))
        self.counts = counts
        server = try FaultServer { request in
            let index = request.index % upstreams.count
            counts.withLock { $0[index] += 1 }
            return RoundRobinProxy.forward(request, to: upstreams[index])
        }
    }

    deinit { server.stop() }

    /// The API root clients use, `http://127.0.0.1:PORT/v1`.
    var baseURL: String { "http://127.0.0.1:\(server.port)/v1" }

    /// How many requests each upstream was given.
    var served: [Int] { counts.withLock { $0 } }

    /// Stops listening.
    func stop() { server.stop() }

    /// Sends `request` to `upstream` as it came (method, path, JSON body) and answers with its reply.
    private static func forward(_ request: FaultServer.Request, to upstream: String) -> FaultServer.Reply {
        let line = request.head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard line.count >= 2, let url = URL(string: upstream + line[1]) else {
            return .respond(status: 400, body: "{\"error\": \"unreadable request line\"}")
        }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = String(line[0])
        outgoing.timeoutInterval = 600
        if !request.body.isEmpty {
            outgoing.httpBody = Data(request.body.utf8)
            outgoing.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let done = DispatchSemaphore(value: 0)
        let reply = Locked<FaultServer.Reply>(.respond(status: 502, body: "{\"error\": \"no answer upstream\"}"))
        URLSession.shared.dataTask(with: outgoing) { data, response, _ in
            if let response = response as? HTTPURLResponse {
                let body = String(decoding: data ?? Data(), as: UTF8.self)
                let headers = [("Content-Type", "application/json")]
                reply.withLock { $0 = .respond(status: response.statusCode, headers: headers, body: body) }
            }
            done.signal()
        }.resume()
        done.wait()
        return reply.withLock { $0 }
    }
}
