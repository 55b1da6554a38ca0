@testable import FakeSupport
import Contracts
import LoopbackHTTP
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import FakeBackend
import PushTestSupport

/// Coming back online when another socket took the port meanwhile: the failure is reported
/// (returned, and 503 from the admin API) and the backend honestly stays offline.
@Suite struct OfflineRecoveryTests {
    /// A backend on a port outside the ephemeral range: these tests close its listener and
    /// take the port themselves, and an ephemeral port freed for a moment could be given to
    /// any socket on the machine meanwhile (issue 39: "could not take the backend's port").
    static func fixedPort() throws -> FakeBackend.Configuration {
        var configuration = FakeBackend.Configuration()
        configuration.port = try #require(Sockets.portOutsideEphemeralRange(), "no free port below the ephemeral range")
        return configuration
    }

    @Test func portTakenWhileOfflineIsReportedAndTheBackendStaysOffline() async throws {
        try await withFakeBackend(configuration: Self.fixedPort()) { (backend: FakeBackend) async throws in
            let port = backend.port
            #expect(await backend.setOffline(true) == nil)
            var blocker = PortHolder(port: port)
            try #require(blocker != nil, "could not take the port while the backend was offline")

            let failure = try #require(await backend.setOffline(false))
            #expect(failure == .cannotListen)
            #expect(failure.message.contains("127.0.0.1:\(port)"))
            #expect(failure.message.contains("50 attempts"))
            #expect(backend.isOffline)
            #expect(backend.state.isOffline)
            #expect(await backend.clearFaults() == .cannotListen)

            blocker = nil  // releases the port
            #expect(await backend.setOffline(false) == nil)
            #expect(!backend.isOffline)
            #expect(RawClient.connecting(to: port) != nil, "listening again on the same port")
        }
    }

    @Test func adminAPIAnswers503WhenTheBackendCannotComeBackOnline() async throws {
        try await withFakeBackend(configuration: Self.fixedPort()) { (backend: FakeBackend) async throws in
            let admin = AdminAPI(backend: backend)
            await backend.setOffline(true)
            let blocker = try #require(PortHolder(port: backend.port))
            let response = admin.handle(HTTPRequest(
                method: "POST", path: "/offline", headers: ["Content-Type": "application/json"],
                body: Array(#"{"offline": false}"#.utf8)))
            #expect(response.status.code == 503)
            #expect(String(decoding: response.body, as: UTF8.self).contains("stays offline"))
            #expect(backend.isOffline)
            #expect(blocker.descriptor >= 0)
        }
    }

    @Test func backendWithoutASocketGoesOnlineAndOfflineWithoutError() {
        let backend = FakeBackend()
        #expect(backend.setOffline(true) == nil)
        #expect(backend.isOffline)
        #expect(backend.reset() == nil)
        #expect(!backend.isOffline)
    }
}

/// A plain listening socket on 127.0.0.1:port, closed when released.
private final class PortHolder {
    let descriptor: Int32

    init?(port: UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
