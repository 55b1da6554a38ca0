import LoopbackHTTP
import Foundation
import Contracts
import FakeSupport

extension FakeBackend {
    /// How a FakeBackend starts: where it listens, who may call it, and what it keeps.
    public struct Configuration: Sendable {
        /// Address to bind. Loopback by default; anything else is an explicit choice.
        public var host: String
        /// Port to bind; 0 picks a free one (read it from ``FakeBackend/port``).
        public var port: UInt16
        /// Bearer token → account id. A request whose bearer is not here gets 401.
        public var sessions: [String: String]
        /// When true, any bearer not in `sessions` is its own account id (how
        /// `contract-check serve` runs without `--session`, so an app can sign in as anyone).
        public var acceptsAnyBearer: Bool
        /// How many journal entries are kept; older ones are dropped and counted.
        public var journalCapacity: Int
        /// How many "opened" reports are kept (the newest); older ones are dropped and counted
        /// in ``FakeBackend/opensDropped``, so a long-running `serve` keeps its memory bounded.
        public var opensCapacity: Int
        /// Faults in force from the start.
        public var faults: [BackendFaultPlan]
        /// Largest request body the server reads (413 above it); 64 KiB by default, a hundred
        /// times the largest valid request (a few hundred bytes). The server's HTTP/2 stream
        /// window is no larger than this plus 1 KiB.
        public var maxBodyBytes: Int
        /// The contracts requests are checked against, looked up by name (`device-token`,
        /// `device-registration`, `notification-id`, `notification-opened`); a set without
        /// one of them skips that check.
        public var contracts: ContractSet
        /// The clock stamped on journal entries, devices and opens: the wall clock unless a
        /// test passes a ``PushClock`` it moves (shared with FakeAPNs and the scenarios).
        public var clock: PushClock
        /// Called after each request is journaled (outside the backend's lock), e.g. to log it.
        public var onRequest: (@Sendable (BackendJournalEntry) -> Void)?
        /// Called after ``onRequest`` for each device registration answered 204
        /// (`PUT /v1/devices/{token}`), with the device as the backend now holds it: `serve`
        /// teaches FakeAPNs the token from it, with no lookup of its own.
        package var onDeviceRegistered: (@Sendable (RegisteredDevice) -> Void)?
        /// TLS 1.3 on the backend's port (ALPN `h2` and `http/1.1`), so an app's HTTP client
        /// connects unmodified by trusting `LoopbackTLS.caCertificatePath`. nil (the
        /// default): plain HTTP. Test-only TLS; it protects nothing.
        public var tls: LoopbackTLS? = nil

        /// A configuration; the defaults serve loopback on a free port with no sessions.
        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            sessions: [String: String] = [:],
            acceptsAnyBearer: Bool = false,
            journalCapacity: Int = 10_000,
            opensCapacity: Int = 100_000,
            faults: [BackendFaultPlan] = [],
            maxBodyBytes: Int = 64 * 1024,
            contracts: ContractSet = .v1,
            clock: PushClock = PushClock(),
            onRequest: (@Sendable (BackendJournalEntry) -> Void)? = nil
        ) {
            self.host = host
            self.port = port
            self.sessions = sessions
            self.acceptsAnyBearer = acceptsAnyBearer
            self.journalCapacity = journalCapacity
            self.opensCapacity = opensCapacity
            self.faults = faults
            self.maxBodyBytes = maxBodyBytes
            self.contracts = contracts
            self.clock = clock
            self.onRequest = onRequest
        }
    }
}
