import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request over URLSession (HTTP/1.1 on loopback), answered with a status and headers.
/// A transport failure (refused, reset, lost response, timeout) throws.
struct HTTPExchange: Sendable {
    let session: URLSession

    /// True: one connection per request (`Connection: close`).
    let freshConnections: Bool

    /// - Parameter freshConnections: on a reused connection Linux's URLSession notices a lost
    ///   response (the server closing without an answer) only when `timeout` passes, so the
    ///   app, which meets lost responses, asks for a fresh connection each time; the sender,
    ///   which sends many pushes, keeps its connection.
    init(timeout: TimeInterval = 1, freshConnections: Bool = false) {
        self.freshConnections = freshConnections
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 2
        session = URLSession(configuration: configuration)
    }

    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// A header by name, any case.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = body
        if freshConnections { request.setValue("close", forHTTPHeaderField: "Connection") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }
}
