import Foundation
import LoopbackHTTP

/// "Safe on localhost": the admin port drives the fakes, and a web page the developer
/// visits can reach 127.0.0.1 too. Every request passes ``safetyRefusal(_:)`` first:
///
/// - `Host` (HTTP/2 `:authority`) must name loopback: `127.0.0.1`, `localhost`, `[::1]`
///   (any port), or the address the server was bound to. Anything else is 421 Misdirected
///   Request: a DNS-rebinding page (`evil.example` resolving to 127.0.0.1) sends its own
///   name. A request with no `Host` at all (HTTP/1.0 tools) is let through: browsers always send it.
/// - A state-changing method (POST, PUT, PATCH, DELETE) with an `Origin` must come from the
///   admin server's own origin (`http://` + the request's `Host`); else 403. Tools (curl,
///   URLSession) send no `Origin` and are unaffected.
/// - A state-changing request whose `Content-Type` is `text/plain` or `multipart/form-data`
///   is 415 (the bodies are JSON; those types are what a cross-site form or a "simple"
///   `fetch` sends without asking). `application/x-www-form-urlencoded`, the type
///   `curl -d` and URLSession put on a JSON body by default, is refused only from a browser
///   (an `Origin` or `Sec-Fetch-*` header), so the documented curl lines keep working.
///
/// ``AdminServer`` also puts ``securityHeaders`` on every answer (a Content-Security-Policy
/// allowing only the page's own resources, `nosniff`, no referrer).
extension AdminAPI {
    /// The headers every admin answer carries.
    package static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The methods that change state, checked for `Origin` and `Content-Type`.
    static let stateChangingMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// The answer refusing `request`, or nil when it may proceed (see the extension's comment).
    package func safetyRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        let host = request.authority ?? request.headers["Host"]
        if let host, !isAllowedHost(host) {
            return AdminAPI.problem(status: 421, detail: "The admin API answers only Host values that name loopback (127.0.0.1, localhost, [::1]); this request named \(ProblemResponse.quoted(host)).")
        }
        guard Self.stateChangingMethods.contains(request.method) else { return nil }
        let origin = request.headers["Origin"]
        if let origin {
            let own = host.map { "http://" + $0.lowercased() }
            guard origin.lowercased() == own else {
                return AdminAPI.problem(status: 403, detail: "\(request.method) from another origin (\(ProblemResponse.quoted(origin))) is refused: the admin API takes state changes only from its own origin or from tools that send no Origin.")
            }
        }
        let mediaType = (request.headers["Content-Type"] ?? "").split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let fromBrowser = origin != nil || request.headers.contains { $0.name.lowercased().hasPrefix("sec-fetch-") }
        if mediaType == "text/plain" || mediaType == "multipart/form-data"
            || (mediaType == "application/x-www-form-urlencoded" && fromBrowser) {
            return AdminAPI.problem(status: 415, detail: "Content-Type \(ProblemResponse.quoted(mediaType)) is refused on \(request.method): send application/json (or no body).")
        }
        return nil
    }

    /// `127.0.0.1`, `localhost`, `[::1]` or the bound address, with or without a port.
    func isAllowedHost(_ value: String) -> Bool {
        let host = Self.hostPart(of: value.lowercased())
        if host == "127.0.0.1" || host == "localhost" || host == "[::1]" { return true }
        guard let bound = boundHost?.lowercased(), !bound.isEmpty else { return false }
        return host == (bound.contains(":") ? "[\(bound)]" : bound)
    }

    /// The host of a `Host` value: `[::1]:8080` → `[::1]`, `localhost:80` → `localhost`.
    static func hostPart(of value: String) -> Substring {
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return Substring(value) }
            return value[...close]
        }
        return value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? Substring(value)
    }
}
