// Name probe. These types are not part of the app's push logic: they exist so that
// AppTests/NameProbeTests.swift, which imports App next to FakeBackend, FakeAPNs and
// PushScenarios, fails to compile if the toolkit ever leaks one of these common names
// (an app very likely has its own `Schema`, `Device` or `Journal`). `Route`,
// `HTTPRequest`, `HTTPResponse`, `HTTPStatus` and `HTTPFields` are the app's real ones.

/// The app's local database schema version.
public struct Schema: Hashable, Sendable {
    public var version: Int
    public init(version: Int = 1) { self.version = version }
}

/// A feature contract the app signs with a partner (terms, not wire formats).
public struct Contract: Hashable, Sendable {
    public var partner: String
    public init(partner: String = "") { self.partner = partner }
}

/// A loyalty-club member.
public struct Member: Hashable, Sendable {
    public var name: String
    public init(name: String = "") { self.name = name }
}

/// A form field that failed its check.
public struct Violation: Hashable, Sendable {
    public var field: String
    public init(field: String = "") { self.field = field }
}

/// The app's own test clock for its previews.
public struct FakeClock: Hashable, Sendable {
    public var seconds: Int
    public init(seconds: Int = 0) { self.seconds = seconds }
}

/// A delivery fault the rider reports.
public enum Fault: Hashable, Sendable {
    case damaged
    case missing
}

/// The faults a delivery reported.
public struct FaultPlan: Hashable, Sendable {
    public var faults: [Fault]
    public init(faults: [Fault] = []) { self.faults = faults }
}

/// The phone the app runs on, as the app describes it in support requests.
public struct Device: Hashable, Sendable {
    public var model: String
    public init(model: String = "") { self.model = model }
}

/// The app's debug log.
public struct Journal: Hashable, Sendable {
    public var entries: [JournalEntry]
    public init(entries: [JournalEntry] = []) { self.entries = entries }
}

/// One line of the app's debug log.
public struct JournalEntry: Hashable, Sendable {
    public var message: String
    public init(message: String = "") { self.message = message }
}

/// A UI test scenario of the app's own.
public struct Scenario: Hashable, Sendable {
    public var name: String
    public init(name: String = "") { self.name = name }
}

/// An RFC 9457 problem the app's backend answers with.
public struct ProblemDetails: Hashable, Sendable, Decodable {
    public var title: String
    public var status: Int?
    public init(title: String = "", status: Int? = nil) {
        self.title = title
        self.status = status
    }
}
