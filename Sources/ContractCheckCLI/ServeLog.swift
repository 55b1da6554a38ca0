import Foundation
import Contracts
import FakeAPNs
import FakeBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live log of `contract-check serve`: one line per request to either fake (time, fake,
/// method, path, status, then the account, reason, fault or violations), violations on
/// indented lines below. Coloured (ANSI) when `colour` is on, plain otherwise.
///
/// ```
/// 04:09:03.789 backend PUT  /v1/devices/0a1b…e8f9 204 account=a1
/// 04:09:04.120 apns    POST /3/device/0a1b…e8f9 200 apns-id=6F1C… delivered
/// 04:09:05.002 apns    POST /3/device/0a1b…e8f9 410 Unregistered
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

    /// The line for a FakeBackend request.
    func line(_ entry: BackendJournalEntry) -> String {
        var details = ["account=\(entry.account ?? "-")"]
        if let fault = entry.fault { details.append(paint("fault=\(fault)", .yellow)) }
        if !entry.violations.isEmpty { details.append(paint("violations=\(entry.violations.count)", .red)) }
        return format(time: entry.time, fake: "backend", method: entry.method, path: entry.path, status: entry.status,
                      details: details, violations: entry.violations)
    }

    /// The line for a FakeAPNs request.
    func line(_ entry: APNsJournalEntry) -> String {
        var details: [String] = []
        if let reason = entry.reason { details.append(paint(reason, entry.status >= 500 ? .red : .yellow)) }
        if entry.status == 200 { details.append("apns-id=\(entry.apnsID)") }
        if let delivery = entry.delivery { details.append(Self.describe(delivery)) }
        if let fault = entry.fault { details.append(paint("fault=\(fault)", .yellow)) }
        if !entry.violations.isEmpty { details.append(paint("violations=\(entry.violations.count)", .red)) }
        let time = Date(timeIntervalSince1970: Double(entry.receivedAt) / 1000)
        return format(time: time, fake: "apns", method: entry.method, path: entry.path,
                      status: entry.status == 0 ? nil : entry.status, details: details, violations: entry.violations)
    }

    /// A line of serve's own (forwarding, preloaded faults), with the time and a tag.
    func note(_ tag: String, _ text: String, time: Date = Date()) -> String {
        "\(paint(Self.clock(time), .dim)) \(paint(tag.padding(toLength: 7, withPad: " ", startingAt: 0), .magenta)) \(text)"
    }

    private func format(time: Date, fake: String, method: String, path: String, status: Int?,
                        details: [String], violations: [Violation]) -> String {
        let statusText = status.map(String.init) ?? "---"
        let statusColour: Colour = switch status {
        case .some(200..<300): .green
        case .some(400..<500): .yellow
        default: .red
        }
        var line = [paint(Self.clock(time), .dim),
                    paint(fake.padding(toLength: 7, withPad: " ", startingAt: 0), fake == "apns" ? .magenta : .cyan),
                    method.padding(toLength: 6, withPad: " ", startingAt: 0) + Self.shorten(path),
                    paint(statusText, statusColour)]
            .joined(separator: " ")
        if !details.isEmpty { line += " " + details.joined(separator: " ") }
        for violation in violations {
            let pointer = violation.pointer.isEmpty ? "(body)" : violation.pointer
            line += "\n    " + paint("\(pointer): \(violation.message) [\(violation.ruleID)]", .red)
        }
        return line
    }

    /// The path with long tokens shortened (`0a1b2c3d…e8f9`); the journal keeps them whole.
    static func shorten(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count > 20 ? "\(segment.prefix(8))…\(segment.suffix(4))" : String(segment)
        }.joined(separator: "/")
    }

    private static func describe(_ outcome: DeliveryOutcome) -> String {
        switch outcome {
        case .delivered: return "delivered"
        case .deliveredTwice: return "delivered twice"
        case .storedWhileOffline: return "stored (device offline)"
        case .droppedOffline: return "dropped (device offline, expired)"
        case .backgroundBudgetExceeded: return "not delivered (background budget)"
        }
    }

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
