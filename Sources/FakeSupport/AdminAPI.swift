import LoopbackHTTP
/// The fakes' admin API: a small JSON HTTP API, served on its own port by `contract-check
/// serve`, to read what a fake recorded and script its faults from outside the process.
///
/// It is a router of (method, path) → handler; each fake only declares its routes
/// (`FakeBackend.adminRoutes`, `FakeAPNs.adminRoutes`), and every route shares the body
/// decoding, query parsing and problem+json answers in `AdminAPI+Bodies.swift`:
/// ```swift
/// var admin = AdminAPI(routes: backend.adminRoutes)   // GET /journal, POST /faults, …
/// admin.add(apns.adminRoutes)                          // GET /apns/deliveries, …
/// let server = try AdminServer.start(api: admin)
/// ```
/// Like the fakes, it is a plain request → response function (``handle(_:)``), testable
/// without a socket. `Docs/admin-openapi.json` and `Docs/admin-openapi-apns.json` list
/// every route.
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
        /// Set on ``events(_:)`` routes: the fake this route adds to `GET /events`.
        package var eventSource: AdminEventSource?

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
    /// The fakes `GET /events` reports on (added with their ``Route/events(_:)`` routes).
    package private(set) var eventSources: [AdminEventSource] = []
    /// The subscribers of `GET /events`, shared by copies of this API.
    let eventHub = AdminEventHub()
    /// The address the admin server was bound to, accepted as a `Host` beside the loopback
    /// names (``AdminServer`` sets it); see `AdminAPI+Safety.swift`.
    package var boundHost: String?

    /// An admin API answering `GET /` (the route list) and `routes`.
    package init(routes: [Route] = []) {
        add(routes)
    }

    /// Adds a route; a later route with the same method and path replaces the earlier one.
    package mutating func add(_ method: String, _ path: String, summary: String, _ handler: @escaping Handler) {
        routes.removeAll { $0.method == method && $0.path == path }
        routes.append(Route(method: method, path: path, summary: summary, handler: handler))
    }

    /// Adds each of `routes` in order, as ``add(_:_:summary:_:)`` does.
    package mutating func add(_ routes: [Route]) {
        for route in routes {
            if let source = route.eventSource {
                addEventSource(source)
            } else {
                add(route.method, route.path, summary: route.summary, route.handler)
            }
        }
    }

    /// Adds (or replaces, by name) a fake to `GET /events`, and the route itself.
    package mutating func addEventSource(_ source: AdminEventSource) {
        eventSources.removeAll { $0.name == source.name }
        eventSources.append(source)
        let sources = eventSources, hub = eventHub
        add("GET", "/events", summary: AdminEventHub.summary) { _ in hub.subscribe(sources: sources) }
    }

    /// Answers a request: `GET /` lists the routes (or, to a browser, is the ``Dashboard``
    /// page); otherwise the matching route, the dashboard's files and payload check, 405
    /// with `Allow` for a known path with another method, or 404.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = safetyRefusal(request) { return refusal }
        let path = request.pathWithoutQuery
        if request.method == "GET", path == "/" {
            return Dashboard.prefersHTML(request.headers["Accept"] ?? "") ? Dashboard.page(snapshotOf: self) : routeList(for: request)
        }
        let onPath = routes.filter { $0.path == path }
        if let route = onPath.first(where: { $0.method == request.method }) {
            return route.handler(request)
        }
        if let page = Dashboard.routes.first(where: { $0.path == path && $0.method == request.method }) {
            return page.handler(request)
        }
        if !onPath.isEmpty {
            let allow = onPath.map(\.method).joined(separator: ", ")
            return AdminAPI.problem(status: 405, detail: "\(request.method) is not allowed on \(ProblemResponse.quoted(path)); use \(allow).",
                                    headers: [("Allow", allow)])
        }
        return AdminAPI.problem(status: 404, detail: "No admin route \(ProblemResponse.quoted(path)). GET / lists the routes.")
    }
}

extension AdminAPI {
    /// `GET /`: every route, one per line: pretty JSON (`{"routes": ["GET /journal — …"]}`),
    /// or plain text when the client's `Accept` prefers `text/plain` over JSON.
    func routeList(for request: HTTPRequest) -> HTTPResponse {
        let lines = routes.map { "\($0.method) \($0.path) — \($0.summary)" }
        let accept = (request.headers["Accept"] ?? "").lowercased()
        if accept.contains("text/plain") && !accept.contains("json") {
            let text = lines.joined(separator: "\n") + "\n"
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
        }
        return AdminAPI.json(["routes": lines])
    }
}

/// A bad admin request, carried as the 400 (or other 4xx) response that explains it.
package struct AdminRequestError: Error, Sendable {
    /// The `application/problem+json` answer saying what to send instead.
    package var response: HTTPResponse

    /// A problem answer with `status` (400 by default), `detail` and the `violations` it lists.
    package init(status: Int = 400, _ detail: String, violations: [ViolationRecord] = []) {
        response = AdminAPI.problem(status: status, detail: detail, violations: violations)
    }
}
