import LoopbackHTTP

/// Why a FakeAPNs call failed. Compare with the static members.
public struct FakeAPNsError: Error, Sendable, Hashable, CustomStringConvertible, CodedError {
    package enum Code: Hashable, Sendable {
        case timedOut
        case cancelled
        case serverUnavailable
        case badKeySpec
    }

    package let code: Code
    /// What went wrong and what to do next.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A `waitFor…` call's condition did not come true in time.
    public static let timedOut = FakeAPNsError(.timedOut, "timed out")
    /// The waiting task was cancelled.
    public static let cancelled = FakeAPNsError(.cancelled, "cancelled")
    /// The HTTP server could not start.
    public static let serverUnavailable = FakeAPNsError(.serverUnavailable, "the HTTP server is unavailable")

    /// A `KEY_ID:TEAM_ID:FILE.p8` key spec or its file is unusable.
    public static let badKeySpec = FakeAPNsError(.badKeySpec, "bad key spec")

    static func badKeySpec(_ why: String) -> FakeAPNsError { FakeAPNsError(.badKeySpec, why) }

    static func timedOut(_ what: String) -> FakeAPNsError {
        FakeAPNsError(.timedOut, "timed out waiting for \(what); check the journal (`fake.journal`) for what arrived")
    }

    static func serverUnavailable(_ why: String) -> FakeAPNsError {
        FakeAPNsError(.serverUnavailable, why)
    }
}
