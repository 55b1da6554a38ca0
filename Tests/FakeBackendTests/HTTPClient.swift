import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession client as an app would use it, one fresh session per request so that a
/// fault on one connection is not retried by the session behind the test's back.
struct HTTPClient: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    let base: URL

    func send(_ method: String, _ path: String, bearer: String? = "s1", body: [UInt8]? = nil,
              timeout: TimeInterval = 10) async throws -> Reply {
        guard let url = URL(string: base.absoluteString + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    func put(_ token: String, bearer: String? = "s1", body: [UInt8] = Requests.registration()) async throws -> Reply {
        try await send("PUT", "/v1/devices/\(token)", bearer: bearer, body: body)
    }

    func delete(_ token: String, bearer: String? = "s1") async throws -> Reply {
        try await send("DELETE", "/v1/devices/\(token)", bearer: bearer)
    }

    func opened(_ id: String, action: String = "open", bearer: String? = "s1") async throws -> Reply {
        try await send("POST", "/v1/notifications/\(id)/opened", bearer: bearer, body: Array(#"{"action":"\#(action)"}"#.utf8))
    }

    /// The URLError code a failed request threw, or nil when it succeeded.
    static func failure(_ body: () async throws -> Reply) async -> URLError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as URLError {
            return error.code
        } catch {
            return URLError.Code.unknown
        }
    }
}
