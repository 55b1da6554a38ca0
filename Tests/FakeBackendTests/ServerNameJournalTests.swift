@testable import FakeSupport
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeBackend
import PushTestSupport

/// FakeBackend journals the TLS SNI host name as FakeAPNs does (`serverName`), and nothing
/// for a plain request; `GET /journal` writes it, and leaves it out when nil.
@Suite(.enabled(if: ExternalPeer.find("curl") != nil, "curl is not installed"))
struct BackendServerNameTests {
    static let host = "localhost"  // the backend's leaf names loopback only (Apple's hosts are FakeAPNs')

    /// Runs curl with `arguments` (60 s at most); returns what it printed (stdout and stderr).
    static func runCurl(_ arguments: [String]) throws -> String {
        try ExternalPeer.run(try #require(ExternalPeer.find("curl")), arguments, timeout: 60).output
    }

    /// PUTs a valid registration for ``Requests/token`` to `origin`; returns `HTTP-version status`.
    static func register(at origin: String, _ options: [String]) throws -> String {
        try runCurl(["-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_version} %{http_code}", "-X", "PUT",
                     "-H", "Authorization: Bearer s1", "-H", "Content-Type: application/json",
                     "--data-binary", String(decoding: Requests.registration(), as: UTF8.self)]
                    + options + ["\(origin)/v1/devices/\(Requests.token)"])
    }

    @Test func tlsWithSNIJournalsTheServerNameAndPlainHTTPNone() async throws {
        let tls = try LoopbackTLS.generated()
        defer { tls.removeTemporaryFiles() }
        var secure = FakeBackend.Configuration(sessions: Requests.sessions)
        secure.tls = tls
        let backend = try await FakeBackend.start(configuration: secure)
        let port = backend.port
        let named = try Self.register(at: "https://\(Self.host):\(port)",
                                      ["--http1.1", "--cacert", tls.caCertificatePath, "--resolve", "\(Self.host):\(port):127.0.0.1"])
        await backend.stop()
        #expect(named == "1.1 204", "\(named)")
        #expect(backend.journal.map(\.serverName) == [Self.host])

        let plain = try await FakeBackend.start(configuration: .init(sessions: Requests.sessions))
        let plainPort = plain.port
        let unnamed = try Self.register(at: "http://\(Self.host):\(plainPort)", ["--resolve", "\(Self.host):\(plainPort):127.0.0.1"])
        await plain.stop()
        #expect(unnamed == "1.1 204", "\(unnamed)")
        #expect(plain.journal.map(\.serverName) == [nil])

        let written = try journalJSON(backend)
        #expect(written.first?["serverName"] as? String == Self.host)
        #expect(try journalJSON(plain).first?.keys.contains("serverName") == false)
        let documented = try Self.documentedMembers()
        let undocumented = Set(try #require(written.first).keys).subtracting(documented)
        #expect(undocumented.isEmpty, "members Docs/admin-openapi.json does not list: \(undocumented)")
        // Codable reads back what it writes, serverName included.
        let entry = try #require(backend.journal.first)
        #expect(try JSONDecoder().decode(BackendJournalEntry.self, from: JSONEncoder().encode(entry)) == entry)
    }

    /// The properties `Docs/admin-openapi.json` lists for a journal entry.
    static func documentedMembers() throws -> Set<String> {
        let url = URL(fileURLWithPath: packageRoot).appendingPathComponent("Docs/admin-openapi.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let entry = schemas?["BackendJournalEntry"] as? [String: Any]
        return Set(try #require(entry?["properties"] as? [String: Any]).keys)
    }

    func journalJSON(_ backend: FakeBackend) throws -> [[String: Any]] {
        let response = AdminAPI(backend: backend).handle(HTTPRequest(method: "GET", path: "/journal"))
        let page = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return try #require(page?["entries"] as? [[String: Any]])
    }
}
