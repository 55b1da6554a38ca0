import Foundation
import LoopbackHTTP

/// The page's first render (issue 39): the state as of the request, in the HTML itself, so a
/// reader without the script (a no-script browser, `chromium --headless --dump-dom`, a
/// screenshot tool) sees the requests and devices, not "Connecting…". The script redraws
/// the same places once it runs. Read through the admin API's own GET routes, as the script
/// reads them.
extension Dashboard {
    /// The most requests the first render lists (the script's feed shows 200 too).
    static let snapshotRows = 200

    /// The page with the current state of `api`'s fakes in it.
    static func page(snapshotOf api: AdminAPI) -> HTTPResponse {
        asset(snapshot(of: api, at: Date()), type: "text/html; charset=utf-8")
    }

    /// ``html`` with the feed rows, the backend's devices and a status line filled in.
    static func snapshot(of api: AdminAPI, at now: Date) -> String {
        var entries: [(fake: String, entry: [String: Any])] = []
        for (fake, path) in [("backend", "/journal"), ("apns", "/apns/journal")] {
            for entry in read(api, path)?["entries"] as? [[String: Any]] ?? [] { entries.append((fake, entry)) }
        }
        // ISO 8601 UTC times with milliseconds sort as text; newest first.
        entries.sort { ($0.entry["time"] as? String ?? "") > ($1.entry["time"] as? String ?? "") }
        let rows = entries.prefix(snapshotRows).map { row($0.fake, $0.entry) }
        var page = html
        page = page.replacingOccurrences(of: #"<tbody id="feed-rows"></tbody>"#,
                                         with: #"<tbody id="feed-rows">"# + rows.joined() + "</tbody>")
        if !rows.isEmpty {
            page = page.replacingOccurrences(of: #"<p id="feed-empty" class="empty">"#, with: #"<p id="feed-empty" class="empty" hidden>"#)
        }
        if let devices = read(api, "/devices")?["devices"] as? [[String: Any]] {
            let items = devices.isEmpty ? ["<li>No device registered.</li>"] : devices.map { device in
                "<li>Account " + escaped(text(device["account"])) + " · " + escaped(shortened(text(device["token"]))) + " · "
                    + escaped(text(device["platform"])) + " " + escaped(text(device["environment"])) + " · app " + escaped(text(device["appVersion"])) + "</li>"
            }
            page = page.replacingOccurrences(of: #"<ul id="accounts"></ul>"#, with: #"<ul id="accounts">"# + items.joined() + "</ul>")
        }
        let time = ISO8601DateFormatter().string(from: now)
        let status = "As of \(time): \(entries.count) request\(entries.count == 1 ? "" : "s"). Goes live when the page's script runs."
        return page.replacingOccurrences(of: #"<p id="live-status" role="status">Connecting…</p>"#,
                                         with: #"<p id="live-status" role="status">"# + escaped(status) + "</p>")
    }

    /// One feed row, as the script draws it (time, fake, method, path, status, reason, violations).
    static func row(_ fake: String, _ entry: [String: Any]) -> String {
        let code = entry["status"] as? Int ?? 0
        let time = String(text(entry["time"]).dropFirst(11).prefix(12))
        let fault = (entry["fault"] as? [String: Any]).map { "fault: " + text($0["kind"]) }
        let reason = [entry["reason"] as? String, fault, entry["delivery"] as? String, entry["detail"] as? String]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let violations = (entry["violations"] as? [[String: Any]] ?? []).map { violation in
            let pointer = text(violation["pointer"])
            return "<li>" + escaped((pointer.isEmpty ? "(document)" : pointer) + ": " + text(violation["message"]) + " [" + text(violation["rule"]) + "]") + "</li>"
        }
        let cells = [escaped(time), fake == "apns" ? "APNs" : "backend", escaped(text(entry["method"])),
                     escaped(shortenedPath(text(entry["path"]))), code == 0 ? "—" : String(code), escaped(reason),
                     violations.isEmpty ? "" : #"<ul class="violations">"# + violations.joined() + "</ul>"]
        let classes = ["", "", "", #" class="path""#, #" class="status""#, "", ""]
        return #"<tr class=""# + (code >= 400 || code == 0 ? "bad" : "good") + #"">"#
            + zip(cells, classes).map { "<td\($0.1)>\($0.0)</td>" }.joined() + "</tr>"
    }

    /// A GET route of `api`, read as JSON; nil when the route is not served.
    static func read(_ api: AdminAPI, _ path: String) -> [String: Any]? {
        var headers = HTTPFields()
        headers.append(name: "Accept", value: "application/json")
        let response = api.handle(HTTPRequest(method: "GET", path: path, headers: headers))
        guard response.status.code == 200 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    }

    static func text(_ value: Any?) -> String {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return ""
        }
    }

    /// `abababab…abab`, as the script shortens tokens.
    static func shortened(_ token: String) -> String {
        token.count > 16 ? token.prefix(8) + "…" + token.suffix(4) : token
    }

    /// The path with every run of 20 or more hex digits shortened.
    static func shortenedPath(_ path: String) -> String {
        var result = "", run = ""
        for character in path {
            if character.isHexDigit { run.append(character); continue }
            result += run.count >= 20 ? shortened(run) : run
            run = ""
            result.append(character)
        }
        return result + (run.count >= 20 ? shortened(run) : run)
    }

    /// Text for HTML content and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
