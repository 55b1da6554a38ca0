import Testing
import FakeSupport
import LoopbackHTTP
import PushTestSupport

/// The server a fake listens with holds the fake weakly (issue 41: the weak reference is read
/// on every request, so how it is held is on the request path).
@Suite struct LifecycleOwnerTests {
    final class Owner: Sendable {}

    /// One request on a new connection; the status it is answered with.
    static func status(port: UInt16) throws -> Int? {
        let client = try RawClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return client.readStatus()
    }

    @Test func aServerAnswersWithItsOwnerWhileItLivesThen503WithoutKeepingIt() throws {
        let lifecycle = FakeLifecycle()
        defer { lifecycle.stopListening {} }
        weak var released: Owner?
        do {
            let owner = Owner()
            released = owner
            try lifecycle.listen(HTTPServerConfiguration(), owner: owner) { _, _ in HTTPResponse(status: .noContent) }
            #expect(try Self.status(port: lifecycle.port) == 204)
            withExtendedLifetime(owner) {}
        }
        #expect(released == nil, "the server keeps no strong reference to the fake")
        #expect(try Self.status(port: lifecycle.port) == 503)
    }
}
