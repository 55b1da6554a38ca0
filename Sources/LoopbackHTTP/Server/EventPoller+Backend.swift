#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EventPoller {
    /// Which kernel interface a poller runs.
    ///
    /// `poll` is plain POSIX and the same code on every platform (wake-ups through a
    /// self-pipe, sockets made with `socket`/`accept` + `fcntl`), so the Linux CI step that
    /// runs the suite under `LOOPBACK_POLLER=poll` runs what a Mac runs.
    package enum Backend: String, Sendable, Hashable, CaseIterable {
        /// Linux only: epoll, an eventfd wake-up, `accept4` and `SOCK_NONBLOCK`.
        case epoll
        /// POSIX `poll(2)` over a dense `pollfd` array; Darwin's only backend.
        case poll

        /// The backends this platform has, its default first.
        package static let available: [Backend] = {
            #if canImport(Glibc)
            return [.epoll, .poll]
            #else
            return [.poll]
            #endif
        }()

        /// What a server runs when nothing chose: epoll on Linux, poll on Darwin.
        package static var platformDefault: Backend { available[0] }

        /// The environment variable read (once per process) by ``selected``.
        package static let environmentVariable = "LOOPBACK_POLLER"

        /// The backend for servers whose configuration does not name one: `LOOPBACK_POLLER`
        /// (`poll` or `epoll`) when it names one this platform has, else ``platformDefault``.
        package static let selected: Backend = resolve(getenv(environmentVariable).map { String(cString: $0) })

        /// The backend a `LOOPBACK_POLLER` value selects: unset, unknown or unavailable
        /// values give ``platformDefault`` (a typo must not stop a server from starting).
        package static func resolve(_ value: String?) -> Backend {
            guard let value, let backend = Backend(rawValue: value), available.contains(backend) else {
                return platformDefault
            }
            return backend
        }

        /// Sockets for this backend use only POSIX calls (`socket`/`accept` + `fcntl`), as on Darwin.
        package var usesPortableSockets: Bool { self == .poll }

        func makeSet() throws(SystemError) -> any ReadinessSet {
            #if canImport(Glibc)
            if self == .epoll { return try EpollSet() }
            #endif
            return try PollSet()
        }
    }
}
