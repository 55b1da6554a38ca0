import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import FakeSupport

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

    /// Whether the log should be coloured: `ServeOption.color always|never`, or for `auto` a terminal
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
        var line: [UInt8] = []
        append(entry, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// The line for a FakeAPNs request: time, `apns`, then the journal's log line.
    func line(_ entry: APNsJournalEntry) -> String {
        var line: [UInt8] = []
        append(entry, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// ``line(_:)-(BackendJournalEntry)`` as UTF-8, appended to what is being written (one line
    /// per request: built straight into the output buffer, with no array of its own).
    func append(_ entry: borrowing BackendJournalEntry, to line: inout [UInt8]) {
        var clock = Clock()
        append(entry, clock: &clock, to: &line)
    }

    /// ``line(_:)-(APNsJournalEntry)`` as UTF-8, appended to what is being written.
    func append(_ entry: borrowing APNsJournalEntry, to line: inout [UInt8]) {
        var clock = Clock()
        append(entry, clock: &clock, to: &line)
    }

    /// ``append(_:to:)-(BackendJournalEntry,_)``, the clock's second taken from `clock` while
    /// lines fall in the same second (a batch of lines is written with one).
    func append(_ entry: borrowing BackendJournalEntry, clock: inout Clock, to line: inout [UInt8]) {
        format(time: entry.time, fake: .backend, status: entry.status, violations: entry.violations, clock: &clock,
               to: &line, capacity: entry.logLineCapacity) { entry.writeLogLine(to: &$0) }
    }

    /// ``append(_:to:)-(APNsJournalEntry,_)``, the clock's second taken from `clock`.
    func append(_ entry: borrowing APNsJournalEntry, clock: inout Clock, to line: inout [UInt8]) {
        format(time: entry.time, fake: .apns, status: entry.status == 0 ? nil : entry.status,
               violations: entry.violations, clock: &clock, to: &line, capacity: entry.logLineCapacity) { entry.writeLogLine(to: &$0) }
    }

    /// A line of serve's own (forwarding, preloaded faults), with the time and a tag.
    func note(_ tag: String, _ text: String, time: Date = Date()) -> String {
        "\(paint(Self.clock(time), .dim)) \(paint(tag, .magenta)) \(text)"
    }

    private enum Fake {
        case backend, apns
    }

    private func format(time: Date, fake: Fake, status: Int?, violations: [Violation], clock: inout Clock,
                        to line: inout [UInt8], capacity: Int, text: (inout LineCursor) -> Void) {
        let colour: Colour = switch status {
        case .some(200..<300): .green
        case .some(400..<500): .yellow
        default: .red
        }
        // The line up to its violations in one copy: time, fake and text through one cursor.
        LineCursor.append(to: &line, capacity: capacity + 21 + (self.colour ? 30 : 0)) { line in
            paint(.dim, &line) { clock.write(time, to: &$0) }
            line.write(UInt8(ascii: " "))
            switch fake {
            case .backend: paint(.cyan, &line) { $0.write(literal: "backend") }
            case .apns: paint(.magenta, &line) { $0.write(literal: "apns") }
            }
            line.write(UInt8(ascii: " "))
            paint(colour, &line, text)
        }
        for violation in violations {
            // The root is `(document)` in every text output; JSON says `""`.
            let pointer = violation.pointer.isEmpty ? "(document)" : violation.pointer
            line.append(contentsOf: "\n    ".utf8)
            line.append(contentsOf: paint("\(pointer): \(violation.message) [\(violation.ruleID)]", .red).utf8)
        }
    }

    /// A token shortened for a note (`0a1b2c3d…e8f9`) as the request lines shorten it; the
    /// journal keeps it whole.
    static func shorten(_ token: String) -> String { LogText.token(token) }

    /// `HH:MM:SS.mmm` in UTC.
    static func clock(_ date: Date) -> String {
        var text: [UInt8] = []
        appendClock(date, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``clock(_:)``, appended: the time of day is what is left of the whole days since 1970
    /// (UTC has no offsets to look up), written digit by digit (one per request line).
    static func appendClock(_ date: Date, to line: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let day: Int64 = 86_400_000
        let ofDay = Int(((milliseconds % day) + day) % day)
        func put(_ value: Int, digits: Int) {
            if digits == 3 { line.append(UInt8(ascii: "0") + UInt8(value / 100)) }
            line.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
            line.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        put(ofDay / 3_600_000, digits: 2)
        line.append(UInt8(ascii: ":"))
        put(ofDay / 60_000 % 60, digits: 2)
        line.append(UInt8(ascii: ":"))
        put(ofDay / 1000 % 60, digits: 2)
        line.append(UInt8(ascii: "."))
        put(ofDay % 1000, digits: 3)
    }

    /// The clock of a batch of lines: `HH:MM:SS.` of the second the last line was stamped in,
    /// kept while the lines stamped fall in the same second (only the milliseconds are new).
    struct Clock {
        private var second = Int64.min
        private var text: [UInt8] = []

        /// ``ServeLog/clock(_:)`` of `date`, appended.
        mutating func append(_ date: Date, to line: inout [UInt8]) {
            LineCursor.append(to: &line, capacity: 12) { write(date, to: &$0) }
        }

        /// ``ServeLog/clock(_:)`` of `date`, written.
        mutating func write(_ date: Date, to line: inout LineCursor) {
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
            // Floored, so that a date before 1970 keeps its own second too.
            let second = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds + 1) / 1000 - 1
            if second != self.second {
                self.second = second
                text.removeAll(keepingCapacity: true)
                ServeLog.appendClock(date, to: &text)
                text.removeLast(3)
            }
            let fraction = Int(milliseconds - second * 1000)
            text.withUnsafeBufferPointer { line.write($0) }
            line.write(UInt8(ascii: "0") + UInt8(fraction / 100))
            line.write(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
            line.write(UInt8(ascii: "0") + UInt8(fraction % 10))
        }
    }

    enum Colour: String {
        case red = "31", green = "32", yellow = "33", magenta = "35", cyan = "36", dim = "2"
    }

    /// What `body` writes, between `colour`'s escape and the reset when colour is on.
    private func paint(_ colour: Colour, _ line: inout LineCursor, _ body: (inout LineCursor) -> Void) {
        guard self.colour else { return body(&line) }
        line.write(literal: "\u{1B}[")
        line.write(utf8: colour.rawValue)
        line.write(UInt8(ascii: "m"))
        body(&line)
        line.write(literal: "\u{1B}[0m")
    }

    func paint(_ text: String, _ colour: Colour) -> String {
        self.colour ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }
}
