#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one part of an ``EventPoller`` other threads use: the write end of its wake-up
/// channel (the self-pipe of `poll`, the eventfd of epoll).
///
/// Only a descriptor, so it is `Sendable`. It must not be used after the poller is closed;
/// `ServerControl` wakes under the lock that also records the loop's exit.
package struct PollerWaker: Sendable {
    let fd: Int32

    /// Makes the poller's blocked or next `wait` return. Writes 8 bytes, which an eventfd
    /// needs and a pipe takes alike. A full pipe (`EAGAIN`) is a wake-up already pending.
    package func wake() {
        var one: UInt64 = 1
        _ = try? systemCall("write(wake)") { write(fd, &one, MemoryLayout<UInt64>.size) }
    }
}
