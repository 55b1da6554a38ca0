import Contracts
import Foundation
import Testing
@testable import FakeBackend
#if canImport(FoundationNetworking)
import FoundationNetworking
import PushTestSupport
#endif

/// FakeBackend on a real socket, driven by URLSession as an app would.
@Suite struct BackendSocketTests {
    let configuration = FakeBackend.Configuration(sessions: Requests.sessions)

    @Test func registerMoveDeleteAndOpenedTwice() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            #expect(backend.port != 0)
            #expect(try await client.put(Requests.token.uppercased(), bearer: "s1").status == 204)
            #expect(backend.devices[Requests.token]?.account == "a1")
            // Another account signs in on the same device: the token moves.
            #expect(try await client.put(Requests.token, bearer: "s2").status == 204)
            #expect(backend.devices[Requests.token]?.account == "a2")
            // a1 can no longer delete it; a2 can; deleting again is still fine.
            let other = try await client.delete(Requests.token, bearer: "s1")
            #expect(other.status == 404)
            #expect(other.header("Content-Type") == "application/problem+json")
            #expect(try await client.delete(Requests.token, bearer: "s2").status == 204)
            #expect(try await client.delete(Requests.token, bearer: "s2").status == 204)
            #expect(backend.devices.isEmpty)
            // Opened twice: both recorded.
            #expect(try await client.opened("91", action: "trackOrder").status == 204)
            #expect(try await client.opened("91", action: "trackOrder").status == 204)
            #expect(backend.opens(for: "91").count == 2)
            #expect(backend.journal.map(\.status) == [204, 204, 404, 204, 204, 204, 204])
        }
    }

    @Test func violationsAndAuthOverTheWire() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            let unauthorized = try await client.put(Requests.token, bearer: nil)
            #expect(unauthorized.status == 401)
            #expect(unauthorized.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let bad = try await client.put(Requests.token, body: Array(#"{"platform":"ios"}"#.utf8))
            #expect(bad.status == 400)
            #expect(bad.header("Content-Type") == "application/problem+json")
            let violations = bad.json["violations"] as? [[String: Any]] ?? []
            #expect(!violations.isEmpty)
            #expect(violations.allSatisfy { ($0["rule"] as? String)?.hasPrefix("device-registration.") == true })
            let wrongMethod = try await client.send("GET", "/v1/devices/\(Requests.token)")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "PUT, DELETE")
            #expect(try await client.send("GET", "/v2/anything").status == 404)
            #expect(backend.devices.isEmpty)
        }
    }

    @Test func waitForSeesRequestsFromAnotherTask() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            let sender = Task { try await client.put(Requests.token, bearer: "s2") }
            let device = try await backend.waitForDevice(token: Requests.token, account: "a2", timeout: .seconds(30))
            #expect(device.account == "a2")
            #expect(try await sender.value.status == 204)
        }
    }

    @Test func throttledWithRetryAfterThenAccepted() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.tooManyRequests(retryAfter: 1), on: .putDevice)
            let throttled = try await client.put(Requests.token)
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") == "1")
            #expect(backend.devices.isEmpty)
            #expect(try await client.put(Requests.token).status == 204)
            #expect(backend.devices.count == 1)
        }
    }

    @Test func serverErrors() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.status(code: 500), on: .opened)
            backend.addFault(.status(code: 503), on: .opened)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await client.opened("1").status) }
            #expect(statuses == [500, 503, 204])
        }
    }

    @Test func offlineRefusesConnectionsUntilCleared() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            #expect(try await client.put(Requests.token).status == 204)
            await backend.setOffline(true)
            let code = await HTTPClient.failure { try await client.delete(Requests.token) }
            #expect(code == .cannotConnectToHost)
            #expect(RawClient.connecting(to: backend.port) == nil)
            #expect(backend.devices.count == 1)
            await backend.clearFaults()
            #expect(try await client.delete(Requests.token).status == 204)
            #expect(backend.devices.isEmpty)
        }
    }

    @Test func hangIsATimeoutForTheClient() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.hang, on: .putDevice)
            let code = await HTTPClient.failure { try await client.send("PUT", "/v1/devices/\(Requests.token)", body: Requests.registration(), timeout: 1) }
            #expect(code == .timedOut)
            #expect(backend.devices.isEmpty)
            #expect(backend.journal.last?.fault == .hang)
        }
    }

    @Test func resetDropsTheConnection() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.reset, on: .opened)
            let code = await HTTPClient.failure { try await client.opened("91") }
            #expect(code != nil)
            #expect(code != .timedOut)
            #expect(backend.opens.isEmpty)
        }
    }

    @Test func aLostResponseThenARetryIsADuplicate() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.loseResponse, on: .opened)
            let code = await HTTPClient.failure { try await client.opened("91") }
            #expect(code != nil)
            #expect(code != .timedOut)
            #expect(try await client.opened("91").status == 204)
            let opens = backend.opens(for: "91")
            #expect(opens.count == 2)
            let journal = backend.journal.filter { $0.endpoint == .opened }
            #expect(journal.map(\.fault) == [.loseResponse, nil])
            #expect(journal.map(\.status) == [204, 204])
        }
    }

    @Test func delayAnswersLate() async throws {
        try await withFakeBackend(configuration: configuration) { (backend: FakeBackend) async throws in
            let client = HTTPClient(base: backend.baseURL)
            backend.addFault(.delay(milliseconds: 300), on: .putDevice)
            // The change is applied before the answer goes out.
            let reply = Task { try await client.put(Requests.token) }
            try await backend.waitForDevice(token: Requests.token, timeout: .seconds(30))
            #expect(try await reply.value.status == 204)
        }
    }

    @Test func aWaitStartedAfterStopFailsAtOnce() async throws {
        let backend = try await FakeBackend.start(configuration: configuration)
        await backend.stop()
        await #expect(throws: FakeBackendError.cancelled) {
            try await backend.waitForDevice(token: "abcd", timeout: .seconds(30))
        }
    }

    @Test func stopFailsPendingWaitsAndFreesThePort() async throws {
        let backend = try await FakeBackend.start(configuration: configuration)
        let port = backend.port
        let waiter = Task { try await backend.waitForDevice(token: "abcd", timeout: .seconds(60)) }
        try await backend.waitFor("the waiter", timeout: .seconds(30)) { _ in true }
        let listener = listeningSocketInode(port: port)
        await backend.stop()
        // A freed port is the kernel's to give again, and the suite's other servers bind ports
        // all the time: twice, in full runs, a connect right after stop() was answered. Where
        // the system lists its sockets (Linux), a connect that is answered fails the test only
        // when the listening socket is still the backend's own.
        if RawClient.connecting(to: port) != nil {
            #expect(listener != nil && listeningSocketInode(port: port) != listener,
                    "port \(port) is still listened on by the stopped backend's socket")
        }
        await #expect(throws: FakeBackendError.cancelled) { try await waiter.value }
        await backend.stop()
    }
}

/// The inode of the TCP socket listening on 127.0.0.1:`port` (or any address), from
/// `/proc/net/tcp`; nil where there is none or the system has no such list (Darwin).
private func listeningSocketInode(port: UInt16) -> String? {
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
    let hexPort = ":" + String(format: "%04X", port)
    for line in table.split(separator: "\n").dropFirst() {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[3] == "0A" else { continue }
        return String(fields[9])
    }
    return nil
}
