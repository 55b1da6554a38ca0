import Contracts
import Foundation  // memchr (the C library, on either platform)
import LoopbackHTTP
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
        ascii.withUnsafeBufferPointer { appendToken($0, to: &shown) }
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
        var target = target
        target.withUTF8 { bytes in
            let lineStart = line.count
            line.reserveCapacity(lineStart + bytes.count + ellipsis.count)
            guard let base = bytes.baseAddress else { return }
            // Where `byte` is first in `bytes[from..<to]`, or `to`: memchr, as the segments of
            // a target are found once per request.
            func find(_ byte: UInt8, from: Int, to: Int) -> Int {
                guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            // Segments up to the query, each shortened when it is a long hex run; everything
            // else (slashes, short segments, the query) copied as it is, in runs between the
            // shortened ones. Only a long segment is checked for hex (a short one never is).
            let pathEnd = find(UInt8(ascii: "?"), from: 0, to: bytes.count)
            var start = 0
            var copied = 0
            while true {
                let end = find(UInt8(ascii: "/"), from: start, to: pathEnd)
                let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if segment.count >= 20 && SWAR.allHexDigits(segment) {
                    if copied < start { line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start])) }
                    appendToken(segment, to: &line)
                    copied = end
                }
                guard end < pathEnd else { break }
                start = end + 1
            }
            if copied < bytes.count { line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...])) }
            // Bytes bound characters: only a long target needs counting.
            guard line.count - lineStart > maxPathCharacters else { return }
            let text = String(decoding: line[lineStart...], as: UTF8.self)
            guard text.count > maxPathCharacters else { return }
            line.removeSubrange(lineStart...)
            line.append(contentsOf: text.prefix(maxPathCharacters).utf8)
            line.append(contentsOf: ellipsis)
        }
    }

    /// `PUT /v1/devices/0a1b2c3d…e8f9 204`: how every log line starts (`---` when no status
    /// was sent).
    package static func appendRequest(method: String, path: String, status: Int?, to line: inout [UInt8]) {
        appendUTF8(method, to: &line)
        line.append(UInt8(ascii: " "))
        appendPath(path, to: &line)
        line.append(UInt8(ascii: " "))
        if let status { appendDecimal(status, to: &line) } else { line.append(contentsOf: "---".utf8) }
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
        if value < 0 { line.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { line.append(buffer[index]) }
        }
    }

    /// ``detail(_:)``, appended to a line being built.
    package static func appendDetail(_ detail: String?, to line: inout [UInt8]) {
        guard let detail, !detail.isEmpty else { return }
        line.append(contentsOf: " (".utf8)
        line.append(contentsOf: detail.utf8)
        line.append(UInt8(ascii: ")"))
    }

    /// ` (why)`: a journal's detail, appended to a line when there is one.
    package static func detail(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }

    /// `…` in UTF-8.
    private static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]

    /// ASCII `token` lowercased, and past 20 bytes its first 8, `…` and its last 4: built in
    /// 15 bytes on the stack and appended at once (one line per request goes through here).
    private static func appendToken(_ token: UnsafeBufferPointer<UInt8>, to shown: inout [UInt8]) {
        guard token.count > 20 else {
            for byte in token { shown.append(ASCII.lowercase(byte)) }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { short in
            for index in 0..<8 { short[index] = ASCII.lowercase(token[index]) }
            short[8] = 0xE2
            short[9] = 0x80
            short[10] = 0xA6
            for index in 0..<4 { short[11 + index] = ASCII.lowercase(token[token.count - 4 + index]) }
            shown.append(contentsOf: UnsafeBufferPointer(short))
        }
    }
}
