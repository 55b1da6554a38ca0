import LoopbackHTTP
import Foundation

/// The fakes' admin API: a small JSON HTTP API, served on its own port by `contract-check
/// serve`, to read what a fake recorded and script its faults from outside the process.
///
/// It is a router of (method, path) → handler, so each fake adds its own routes:
/// ```swift
/// var admin = AdminAPI(backend: backend)          // GET /journal, POST /faults, …
/// admin.add("GET", "/apns/deliveries", summary: "Deliveries") { request in … }
/// let server = try AdminServer.start(api: admin)
/// ```
/// Like the fakes, it is a plain request → response function (``handle(_:)``), testable
/// without a socket. See `Docs/admin-openapi.json` for every route.
package struct AdminAPI: Sendable {
    /// Answers one admin request.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// One route: a method and an exact path (the query is not part of the match).
    package struct Route: Sendable {
        /// The HTTP method, e.g. `POST`.
        package var method: String
        /// The exact path, e.g. `/faults`.
        package var path: String
        /// One line, listed by `GET /`.
        package var summary: String
        /// Answers the route's requests.
        package var handler: Handler

        /// A route answering `method` on `path` with `handler`.
        package init(method: String, path: String, summary: String, handler: @escaping Handler) {
            self.method = method
            self.path = path
            self.summary = summary
            self.handler = handler
        }
    }

    /// Every route, in the order added.
    package private(set) var routes: [Route] = []

    /// An admin API that only answers `GET /` (the route list); add a fake's routes to it.
    package init() {}

    /// An admin API for `backend`: see ``addRoutes(for:)``.
    package init(backend: FakeBackend) {
        self.init()
        addRoutes(for: backend)
    }

    /// Adds a route; a later route with the same method and path replaces the earlier one.
    package mutating func add(_ method: String, _ path: String, summary: String, _ handler: @escaping Handler) {
        routes.removeAll { $0.method == method && $0.path == path }
        routes.append(Route(method: method, path: path, summary: summary, handler: handler))
    }

    /// Answers a request: `GET /` lists the routes; otherwise the matching route, 405 with
    /// `Allow` for a known path with another method, or 404.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.pathWithoutQuery
        if request.method == "GET", path == "/" {
            return AdminAPI.json(["routes": routes.map { "\($0.method) \($0.path) — \($0.summary)" }])
        }
        let onPath = routes.filter { $0.path == path }
        if let route = onPath.first(where: { $0.method == request.method }) {
            return route.handler(request)
        }
        if !onPath.isEmpty {
            let allow = onPath.map(\.method).joined(separator: ", ")
            var response = AdminAPI.problem(status: 405, title: "Method Not Allowed",
                                            detail: "\(request.method) is not allowed on \(path); use \(allow).")
            response.headers.append(name: "Allow", value: allow)
            return response
        }
        return AdminAPI.problem(status: 404, title: "Not Found",
                                detail: "No admin route \(path). GET / lists the routes.")
    }

    // MARK: Helpers for route handlers

    /// A JSON response (sorted keys, ISO 8601 dates).
    package static func json<Value: Encodable>(_ value: Value, status: HTTPStatus = .ok) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let body = try encoder.encode(value)
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body))
        } catch {
            return problem(status: 500, title: "Internal Server Error", detail: "cannot encode the answer: \(error)")
        }
    }

    /// An `application/problem+json` response.
    package static func problem(status: Int, title: String, detail: String) -> HTTPResponse {
        BackendProblemDetails(type: BackendProblemDetails.typeURI("admin"), title: title, status: status, detail: detail).response()
    }

    /// Decodes a JSON request body, or explains in a 400 what is wrong with it.
    package static func decode<Value: Decodable>(_ type: Value.Type, from request: HTTPRequest) -> Result<Value, AdminRequestError> {
        do {
            return .success(try JSONDecoder().decode(type, from: Data(request.body)))
        } catch let error as DecodingError {
            return .failure(AdminRequestError(response: problem(status: 400, title: "Bad Request",
                                                               detail: describe(error))))
        } catch {
            return .failure(AdminRequestError(response: problem(status: 400, title: "Bad Request",
                                                               detail: "the body is not valid JSON: \(error)")))
        }
    }

    /// The query parameters of a request target (`?id=91&x=1`), percent-decoded.
    package static func query(_ request: HTTPRequest) -> [String: String] {
        guard let mark = request.path.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in request.path[request.path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first?.removingPercentEncoding else { continue }
            items[name] = parts.count > 1 ? (parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
        }
        return items
    }

    private static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the body" : "/" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(at(context.codingPath + [key])) is required"
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(at(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON; send a JSON object" }
            return "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the body does not match: \(error)"
        }
    }
}

/// A bad admin request, carried as the 400 response that explains it.
package struct AdminRequestError: Error, Sendable {
    /// The `application/problem+json` answer saying what to send instead.
    package var response: HTTPResponse
}
