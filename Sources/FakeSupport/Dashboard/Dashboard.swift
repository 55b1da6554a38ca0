import Foundation
import LoopbackHTTP

/// The live page on the admin port (issue 26): `GET /` answers it to a browser (an `Accept`
/// that prefers `text/html`), and its script and style sheet are `GET /dashboard.js` and
/// `GET /dashboard.css`. Written here, no framework and no external resource; the script
/// only calls the admin API's own routes, so the page works offline under a CSP of
/// `'self'`. A panel whose routes answer 404 (a fake not served) is hidden.
///
/// The sources are raw string literals split by topic: the HTML (`Dashboard+HTML.swift`),
/// the style sheet (`Dashboard+Style.swift`) and the script, one file per panel
/// (`Dashboard+Script*.swift`), joined in ``script``.
package enum Dashboard {
    /// The script the page loads: every panel's part, in order.
    package static var script: String {
        [scriptCore, scriptFeed, scriptDevices, scriptPanels, scriptSend].joined(separator: "\n")
    }

    /// The routes serving the page's files (and the payload check its form calls), which
    /// every ``AdminAPI`` answers beside its own routes.
    package static var routes: [AdminAPI.Route] {
        [
            AdminAPI.Route(method: "GET", path: "/dashboard.js", summary: "The dashboard's script (GET / in a browser shows the page)") { _ in
                asset(script, type: "text/javascript; charset=utf-8")
            },
            AdminAPI.Route(method: "GET", path: "/dashboard.css", summary: "The dashboard's style sheet") { _ in
                asset(style, type: "text/css; charset=utf-8")
            },
            AdminAPI.Route(method: "POST", path: "/contracts/check", summary: "Check the body against a v1 contract (?contract=payload): its violations with line and column") { request in
                AdminAPI.checkContract(request)
            },
        ]
    }

    /// One of the page's files, never cached (the page changes with the build).
    static func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": type, "Cache-Control": "no-store"], body: Array(text.utf8))
    }

    /// Whether `accept` (an `Accept` value) asks for HTML over JSON and text: `text/html` is
    /// listed by name with a weight above 0 and at least that of any `application/json` or
    /// `text/plain` listed by name. A browser's `text/html,…,*/*;q=0.8` does; curl's `*/*`
    /// and a test's `application/json` do not, so they get the route list as before.
    static func prefersHTML(_ accept: String) -> Bool {
        var weights: [String: Double] = [:]
        for item in accept.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first, !type.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            weights[type] = max(weights[type] ?? 0, weight)
        }
        guard let html = weights["text/html"], html > 0 else { return false }
        return html >= (weights["application/json"] ?? 0) && html >= (weights["text/plain"] ?? 0)
    }
}
