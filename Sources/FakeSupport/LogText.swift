/// How both fakes write a request on one log line, so a backend line and an APNs line name
/// the same device token the same way.
///
/// `serve` writes one such line per request, so these run on the request path: they work on
/// UTF-8 bytes (no `Character` walks, no `split` arrays) and build the result in one buffer.
package enum LogText {
    /// A device token (or any long hex segment) as a log line shows it: lowercased, and past
    /// 20 digits cut to the first 8 and the last 4 (`0a1b2c3d…e8f9`). The journal keeps it whole.
    package static func token<S: StringProtocol>(_ token: S) -> String {
        let utf8 = token.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            // Not ASCII (never a token): by characters, as it is written.
            let lower = token.lowercased()
            return lower.count > 20 ? "\(lower.prefix(8))…\(lower.suffix(4))" : lower
        }
        var shown: [UInt8] = []
        let ascii = Array(utf8)
        ascii.withUnsafeBufferPointer { token in
            LineCursor.append(to: &shown, capacity: token.count) { $0.write(token: token) }
        }
        return String(decoding: shown, as: UTF8.self)
    }

    /// Requests a log line shows at most this many characters of (then `…`).
    package static let maxPathCharacters = 160

    /// The request target as requested, with each hex segment of 20 or more digits shortened
    /// as ``token(_:)`` does, and cut at ``maxPathCharacters`` characters.
    package static func path(_ target: String) -> String {
        var shown: [UInt8] = []
        appendPath(target, to: &shown)
        return String(decoding: shown, as: UTF8.self)
    }

    /// ``path(_:)``, appended to a line being built.
    package static func appendPath(_ target: String, to line: inout [UInt8]) {
        LineCursor.append(to: &line, capacity: target.utf8.count + 3) { $0.write(path: target) }
    }

    /// `PUT /v1/devices/0a1b2c3d…e8f9 204`: how every log line starts (`---` when no status
    /// was sent).
    package static func appendRequest(method: String, path: String, status: Int?, to line: inout [UInt8]) {
        LineCursor.append(to: &line, capacity: LineCursor.capacity(method: method, path: path)) {
            $0.write(method: method, path: path, status: status)
        }
    }

    /// `text`'s UTF-8, appended with one copy (appending `text.utf8` goes through the generic
    /// sequence path, several times the cost for the few words of a log line).
    package static func appendUTF8(_ text: String, to line: inout [UInt8]) {
        var text = text
        text.withUTF8 { line.append(contentsOf: $0) }
    }

    /// A literal's UTF-8, appended with one copy (the words between a line's values).
    package static func append(literal: StaticString, to line: inout [UInt8]) {
        literal.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    package static func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        LineCursor.append(to: &line, capacity: 21) { $0.write(decimal: value) }
    }

    /// ``detail(_:)``, appended to a line being built.
    package static func appendDetail(_ detail: String?, to line: inout [UInt8]) {
        guard let detail, !detail.isEmpty else { return }
        LineCursor.append(to: &line, capacity: detail.utf8.count + 3) { $0.write(detail: detail) }
    }

    /// ` (why)`: a journal's detail, appended to a line when there is one.
    package static func detail(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }
}
