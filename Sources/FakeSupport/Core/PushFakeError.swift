import PushCore

/// Why a call on a fake failed — the one error both fakes throw and return
/// (`FakeBackendError` and `FakeAPNsError` are its names in each module). Compare with the
/// static members; the message says what happened and what to do next.
///
/// ```swift
/// do { try await apns.waitForRequests(count: 2) }
/// catch let error as PushFakeError where error == .timedOut { print(error) }
/// ```
public struct PushFakeError: Error, Sendable, Hashable, CustomStringConvertible, CodedError {
    /// The kinds; `==` compares these, the message carries the details.
    package enum Code: Hashable, Sendable { case timedOut, cancelled, cannotListen, badKeySpec }

    package let code: Code
    /// What went wrong, where, and what to do next.
    public let message: String

    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// Kind: a wait's condition did not come true in time.
    public static let timedOut = PushFakeError(code: .timedOut, message: "timed out")
    /// Kind: the waiting task was cancelled, or the fake stopped while it waited.
    public static let cancelled = PushFakeError(code: .cancelled, message: "cancelled")
    /// Kind: the fake could not bind or start its server, or could not listen again after
    /// being offline.
    public static let cannotListen = PushFakeError(code: .cannotListen, message: "cannot listen")
    /// Kind: a `KEY_ID:TEAM_ID:FILE.p8` key spec or its file is unusable (FakeAPNs).
    public static let badKeySpec = PushFakeError(code: .badKeySpec, message: "bad key spec")

    /// Kind ``timedOut`` under FakeBackend's former name.
    @available(*, deprecated, renamed: "timedOut")
    public static let waitTimedOut = timedOut
    /// Kind ``cannotListen`` under FakeAPNs' former name.
    @available(*, deprecated, renamed: "cannotListen")
    public static let serverUnavailable = cannotListen

    // MARK: Messages

    /// `fake` (e.g. "FakeAPNs") timed out after `timeout` waiting for `what`; `hint` says
    /// where to look.
    package static func timedOut(_ fake: String, waitingFor what: String, after timeout: Duration, hint: String) -> PushFakeError {
        PushFakeError(code: .timedOut, message: "\(fake): timed out after \(timeout) waiting for \(what); \(hint)")
    }

    /// The task waiting for `what` was cancelled.
    package static func cancelled(_ fake: String, waitingFor what: String) -> PushFakeError {
        PushFakeError(code: .cancelled, message: "\(fake): the task waiting for \(what) was cancelled")
    }

    /// The fake stopped while a task waited for `what`.
    package static func stopped(_ fake: String, waitingFor what: String) -> PushFakeError {
        PushFakeError(code: .cancelled, message: "\(fake) stopped while waiting for \(what); stop it after the waits end")
    }

    /// The server could not start, and why (a configuration it cannot serve, a port taken).
    package static func cannotListen(_ why: String) -> PushFakeError { PushFakeError(code: .cannotListen, message: why) }

    /// The server could not bind `host:port`.
    package static func cannotListen(_ fake: String, host: String, port: UInt16, underlying: any Error) -> PushFakeError {
        PushFakeError(code: .cannotListen, message: "\(fake): cannot listen on \(host):\(port): \(underlying). Use port 0 to pick a free port.")
    }

    /// The server could not bind its port again after being offline.
    package static func cannotListenAgain(_ fake: String, host: String, port: UInt16, attempts: Int, underlying: any Error) -> PushFakeError {
        PushFakeError(code: .cannotListen,
            message: "\(fake): cannot listen on \(host):\(port) again after being offline (\(attempts) attempts): \(underlying). "
                + "Another process took the port; the fake stays offline.")
    }

    /// A key spec or its file is unusable, and why.
    package static func badKeySpec(_ why: String) -> PushFakeError { PushFakeError(code: .badKeySpec, message: why) }
}
