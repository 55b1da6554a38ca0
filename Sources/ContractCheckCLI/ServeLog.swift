import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import LoopbackHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live log of `contract-check serve`: one line per request to either fake — the time
/// (UTC), the fake, then that fake's journal log line (method, path, status, then the
/// account, reason, delivery, fault or violation count) — and each violation on an indented
/// line below. Coloured (ANSI) when `colour` is on: the status's class paints the line.
///
/// ```
/// 04:09:03.789 backend PUT /v1/devices/0a1b2c3d…e8f9 204 account=a1 violations=0
/// 04:09:04.120 apns POST /3/device/0a1b2c3d…e8f9 200 delivery=delivered
/// 04:09:05.002 apns POST /3/device/0a1b2c3d…e8f9 410 Unregistered (unregistered at 2026-12-01T04:09:01.000Z)
/// ```
struct ServeLog: Sendable {
    /// Whether to write ANSI colours.
    var colour: Bool

    /// Whether the log should be coloured: `--color always|never`, or for `auto` a terminal
    /// on standard output with `NO_COLOR` unset or empty and `TERM` not `dumb`.
    static func wantsColour(_ choice: String, environment: [String: String], isTerminal: Bool) -> Bool {
        switch choice {
        case "always": return true
        case "never": return false
        default:
            if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }

    /// The line for a FakeBackend request: time, `backend`, then the journal's log line.
    func line(_ entry: BackendJournalEntry) -> String {
        format(time: entry.time, fake: "backend", text: entry.logLine, status: entry.status,
               violations: entry.violations)
    }

    /// The line for a FakeAPNs request: time, `apns`, then the journal's log line.
    func line(_ entry: APNsJournalEntry) -> String {
        format(time: entry.time, fake: "apns", text: entry.logLine,
               status: entry.status == 0 ? nil : entry.status, violations: entry.violations)
    }

    /// A line of serve's own (forwarding, preloaded faults), with the time and a tag.
    func note(_ tag: String, _ text: String, time: Date = Date()) -> String {
        "\(paint(Self.clock(time), .dim)) \(paint(tag, .magenta)) \(text)"
    }

    private func format(time: Date, fake: String, text: String, status: Int?, violations: [Violation]) -> String {
        let colour: Colour = switch status {
        case .some(200..<300): .green
        case .some(400..<500): .yellow
        default: .red
        }
        var line = "\(paint(Self.clock(time), .dim)) \(paint(fake, fake == "apns" ? .magenta : .cyan)) \(paint(text, colour))"
        for violation in violations {
            // The root is `(document)` in every text output; JSON says `""`.
            let pointer = violation.pointer.isEmpty ? "(document)" : violation.pointer
            line += "\n    " + paint("\(pointer): \(violation.message) [\(violation.ruleID)]", .red)
        }
        return line
    }

    /// A token shortened for a note (`0a1b2c3d…e8f9`) as the request lines shorten it; the
    /// journal keeps it whole.
    static func shorten(_ token: String) -> String { LogText.token(token) }

    /// `HH:MM:SS.mmm` in UTC.
    static func clock(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = Int(milliseconds % 1000)
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms < 10 ? "00" : ms < 100 ? "0" : "")\(ms)"
    }

    enum Colour: String {
        case red = "31", green = "32", yellow = "33", magenta = "35", cyan = "36", dim = "2"
    }

    func paint(_ text: String, _ colour: Colour) -> String {
        self.colour ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
