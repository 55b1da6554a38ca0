#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: which operation, the `errno` it left, and `strerror`'s text.
///
/// Every system call of the server goes through ``systemCall(_:_:)``, which retries `EINTR`, so a
/// failure always names the call that failed instead of surfacing as a bare `-1`.
package struct SystemError: Error, Hashable, CustomStringConvertible {
    /// The call that failed, e.g. `"bind(127.0.0.1:8080)"`.
    package var operation: String
    /// The `errno` value the call left behind.
    package var errno: Int32

    package init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// `strerror(errno)`, e.g. "Address already in use".
    package var message: String { String(cString: strerror(errno)) }

    package var description: String { "\(operation) failed: \(message) (errno \(errno))" }

    /// The call would have blocked on a non-blocking descriptor; try again when ready.
    package var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}

/// Runs one system call, retrying while it is interrupted by a signal (`EINTR`).
///
/// - Parameters:
///   - operation: names the call in the error, e.g. `"accept"`.
///   - body: the call; a result of `-1` means failure with `errno` set.
/// - Returns: the call's non-negative result.
/// - Throws: ``SystemError`` with `errno` and the operation when the call fails.
@discardableResult
package func systemCall<Result: BinaryInteger>(
    _ operation: @autoclosure () -> String,
    _ body: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = currentErrno()
        if code == EINTR { continue }
        throw SystemError(operation: operation(), errno: code)
    }
}

/// Closes a descriptor once. `close` is never retried: on Linux the descriptor is released
/// even when `close` reports `EINTR`, and a retry could close a descriptor another thread
/// has just been given.
package func closeDescriptor(_ fd: Int32) {
    guard fd >= 0 else { return }
    _ = close(fd)
}

/// Makes `fd` non-blocking and close-on-exec with `fcntl`: what `SOCK_NONBLOCK`,
/// `SOCK_CLOEXEC` and `accept4` do in one call on Linux, with POSIX calls only.
package func makeNonBlockingCloseOnExec(_ fd: Int32) throws(SystemError) {
    let flags = try systemCall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
    try systemCall("fcntl(F_SETFL, O_NONBLOCK)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    try systemCall("fcntl(F_SETFD, FD_CLOEXEC)") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
}

/// `errno` of the calling thread (at file scope, where `SystemError.errno` does not shadow it).
@inline(__always)
private func currentErrno() -> Int32 { errno }
