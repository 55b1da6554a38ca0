import PushCore

/// Why a FakeAPNs call failed. Compare with the static members.
public struct FakeAPNsError: Error, Sendable, Hashable, CustomStringConvertible, CodedError {
    /// The kinds; `==` compares these, the message carries the details.
    package enum Code: Hashable, Sendable { case timedOut, cancelled, serverUnavailable, badKeySpec }

    package let code: Code
    /// What went wrong and what to do next.
    public let message: String

    /// A `waitFor…` call's condition did not come true in time.
    public static let timedOut = FakeAPNsError(code: .timedOut, message: "timed out")
    /// The waiting task was cancelled.
    public static let cancelled = FakeAPNsError(code: .cancelled, message: "cancelled")
    /// The HTTP server could not start.
    public static let serverUnavailable = FakeAPNsError(code: .serverUnavailable, message: "the HTTP server is unavailable")

    /// A `KEY_ID:TEAM_ID:FILE.p8` key spec or its file is unusable.
    public static let badKeySpec = FakeAPNsError(code: .badKeySpec, message: "bad key spec")

    static func badKeySpec(_ why: String) -> FakeAPNsError { FakeAPNsError(code: .badKeySpec, message: why) }

    static func timedOut(_ what: String) -> FakeAPNsError {
        FakeAPNsError(code: .timedOut, message: "timed out waiting for \(what); check the journal (`fake.journal`) for what arrived")
    }

    static func serverUnavailable(_ why: String) -> FakeAPNsError {
        FakeAPNsError(code: .serverUnavailable, message: why)
    }
}
