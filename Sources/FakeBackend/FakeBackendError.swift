import PushCore

/// Why a FakeBackend call failed: a wait that timed out, or a server that could not start.
public struct FakeBackendError: Error, Sendable, Equatable, CustomStringConvertible, CodedError {
    /// The kinds; `==` compares these, the message carries the details.
    package enum Code: Hashable, Sendable { case waitTimedOut, cannotListen, cancelled }

    package let code: Code
    /// What went wrong, where, and what to do next.
    public let message: String

    /// Kind: a `waitFor` ran out of time. Compare with `==`.
    public static let waitTimedOut = FakeBackendError(code: .waitTimedOut, message: "wait timed out")
    /// Kind: the server could not bind or start, or could not listen again after being offline.
    public static let cannotListen = FakeBackendError(code: .cannotListen, message: "cannot listen")
    /// Kind: the waiting task was cancelled.
    public static let cancelled = FakeBackendError(code: .cancelled, message: "wait cancelled")

    static func waitTimedOut(what: String, timeout: Duration, state: FakeBackendState) -> FakeBackendError {
        FakeBackendError(code: .waitTimedOut,
            message: "FakeBackend: timed out after \(timeout) waiting for \(what); state: \(state.summary)")
    }

    static func cannotListen(host: String, port: UInt16, underlying: any Error) -> FakeBackendError {
        FakeBackendError(code: .cannotListen,
            message: "FakeBackend: cannot listen on \(host):\(port): \(underlying). Use port 0 to pick a free port.")
    }

    static func cannotListenAgain(host: String, port: UInt16, attempts: Int, underlying: any Error) -> FakeBackendError {
        FakeBackendError(code: .cannotListen,
            message: "FakeBackend: cannot listen on \(host):\(port) again after being offline (\(attempts) attempts): \(underlying). "
                + "Another process took the port; the backend stays offline.")
    }

    static func cancelled(what: String) -> FakeBackendError {
        FakeBackendError(code: .cancelled, message: "FakeBackend: the task waiting for \(what) was cancelled")
    }
}
