import Contracts
import Foundation
import Testing
@testable import FakeBackend
import PushTestSupport

/// Bad input from a client gets an error or a closed connection, never a crash, and never
/// loses what the backend recorded.
@Suite struct BadInputTests {
    /// A backend holding one device and one open, and the snapshot to compare with.
    func recordedBackend() async throws -> (FakeBackend, [String: RegisteredDevice], [RecordedOpen]) {
        let backend = try await FakeBackend.start(configuration: .init(sessions: Requests.sessions))
        let client = HTTPClient(base: backend.baseURL)
        #expect(try await client.put(Requests.token).status == 204)
        #expect(try await client.opened("91").status == 204)
        return (backend, backend.devices, backend.opens)
    }

    /// The state is what it was, and the backend still answers.
    func expectUnchanged(_ backend: FakeBackend, _ devices: [String: RegisteredDevice], _ opens: [RecordedOpen]) async throws {
        #expect(backend.devices == devices)
        #expect(backend.opens == opens)
        let client = HTTPClient(base: backend.baseURL)
        #expect(try await client.put(Requests.token).status == 204)
        #expect(backend.devices == devices)
    }

    @Test(arguments: [
        ("garbage", Array("\u{0}\u{1}\u{2}\u{FF}garbage\r\n\r\n".utf8)),
        ("no colon", Array("PUT /v1/devices/abcd HTTP/1.1\r\nHost: x\r\nAuthorization Bearer s1\r\n\r\n".utf8)),
        ("bad request line", Array("PUT\r\n\r\n".utf8)),
        ("bad content length", Array("PUT /v1/devices/abcd HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8)),
    ])
    func malformedRequestsAre400AndHarmless(name: String, bytes: [UInt8]) async throws {
        let (backend, devices, opens) = try await recordedBackend()
        let raw = try #require(RawClient.connecting(to: backend.port))
        raw.write(bytes)
        let status = raw.readStatus()
        #expect(status == 400, "\(name)")
        raw.disconnect()
        try await expectUnchanged(backend, devices, opens)
        await backend.stop()
    }

    @Test func aTenMegabyteBodyIs413AndHarmless() async throws {
        let (backend, devices, opens) = try await recordedBackend()
        let raw = try #require(RawClient.connecting(to: backend.port))
        let size = 10 * 1024 * 1024
        raw.write("PUT /v1/devices/\(Requests.token) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s2\r\nContent-Length: \(size)\r\n\r\n")
        // The server may answer and close before all of it is sent; either way no change.
        raw.write([UInt8](repeating: 0x7B, count: size))
        #expect(raw.readStatus() == 413)
        raw.disconnect()
        try await expectUnchanged(backend, devices, opens)
        #expect(backend.devices[Requests.token]?.account == "a1")
        await backend.stop()
    }

    @Test func anOversizedBodyGetsTheBackendsOwn413ProblemAndIsJournaled() async throws {
        let (backend, _, _) = try await recordedBackend()
        let raw = try #require(RawClient.connecting(to: backend.port))
        let size = 2 * 1024 * 1024
        raw.write("PUT /v1/devices/\(Requests.token) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s2\r\nContent-Length: \(size)\r\n\r\n")
        let answer = String(decoding: raw.readAll(), as: UTF8.self)
        raw.disconnect()
        #expect(answer.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(answer.contains("content-type: application/problem+json") || answer.contains("Content-Type: application/problem+json"))
        #expect(answer.contains("was not read"))
        let entry = try #require(backend.journal.last)
        #expect(entry.status == 413)
        #expect(entry.endpoint == .putDevice)
        await backend.stop()
    }

    @Test func halfARequestThenCloseIsHarmless() async throws {
        let (backend, devices, opens) = try await recordedBackend()
        for cut in [10, 60, 120] {
            let raw = try #require(RawClient.connecting(to: backend.port))
            let body = Requests.registration()
            let request = Array("PUT /v1/devices/\(Requests.token) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s2\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            raw.write(Array(request.prefix(cut)))
            raw.disconnect()
        }
        try await expectUnchanged(backend, devices, opens)
        #expect(backend.devices[Requests.token]?.account == "a1")
        await backend.stop()
    }

    @Test func aThousandConnectionsOpenedAndDropped() async throws {
        let (backend, devices, opens) = try await recordedBackend()
        var clients: [RawClient] = []
        for _ in 0..<1000 {
            if let client = RawClient.connecting(to: backend.port) { clients.append(client) }
            if clients.count == 100 {
                for client in clients { client.disconnect() }
                clients.removeAll()
            }
        }
        for client in clients { client.disconnect() }
        try await expectUnchanged(backend, devices, opens)
        await backend.stop()
    }
}
