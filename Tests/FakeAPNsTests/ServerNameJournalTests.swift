import Foundation
import LoopbackHTTP
import Testing
@testable import FakeAPNs
import PushTestSupport

/// Issue 15's "SNI read and recorded": a sender that addresses Apple's host over TLS leaves
/// that host in the journal as `serverName`; a TLS client that sent no SNI and a plain h2c
/// request leave none. curl does the sending, as a real sender would.
@Suite(.enabled(if: ExternalPeer.find("curl") != nil, "curl is not installed"))
struct ServerNameJournalTests {
    static let host = "api.sandbox.push.apple.com"

    /// curl's `HTTP-version status` for one push to `url`, with `options` before it.
    static func push(_ url: String, _ options: [String]) throws -> String {
        let curl = try #require(ExternalPeer.find("curl"))
        return try H2PeerSender.run(curl, ["-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                                           "-H", "apns-topic: com.example.app", "--data-binary", #"{"aps":{"alert":"hi"}}"#]
                                          + options + [url], input: Data())
    }

    /// The properties `Docs/admin-openapi-apns.json` lists for a journal entry.
    static func documentedMembers() throws -> Set<String> {
        let url = URL(fileURLWithPath: packageRoot).appendingPathComponent("Docs/admin-openapi-apns.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let schemas = (document?["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let entry = schemas?["APNsJournalEntry"] as? [String: Any]
        return Set(try #require(entry?["properties"] as? [String: Any]).keys)
    }

    @Test func tlsWithSNIJournalsTheHostTheSenderAddressed() async throws {
        let tls = try LoopbackTLS.generated()
        defer { tls.removeTemporaryFiles() }
        var configuration = FakeAPNs.Configuration()
        configuration.tls = tls
        let apns = try await FakeAPNs.start(configuration: configuration)
        let port = apns.port
        let path = "/3/device/\(APNsReasonTable.otherToken)"
        // --resolve is what an /etc/hosts line does: Apple's name, the fake's address.
        let named = try Self.push("https://\(Self.host):\(port)\(path)",
                                  ["--http2", "--cacert", tls.caCertificatePath, "--resolve", "\(Self.host):\(port):127.0.0.1"])
        // An IP address is never sent as SNI.
        let bare = try Self.push("https://127.0.0.1:\(port)\(path)", ["--http2", "--cacert", tls.caCertificatePath])
        await apns.stop()

        #expect(named.hasPrefix("2 4"), "HTTP/2 over TLS, an APNs error for an unknown token: \(named)")
        #expect(bare.hasPrefix("2 4"), "\(bare)")
        #expect(apns.journal.map(\.serverName) == [Self.host, nil])
        #expect(apns.journal.map(\.environment) == [.sandbox, .sandbox])

        let page = AdminRoutesTests.object(AdminRoutesTests.call(apns, "GET", "/apns/journal"))
        let entries = try #require(page["entries"] as? [[String: Any]])
        try #require(entries.count == 2)
        #expect(entries[0]["serverName"] as? String == Self.host)
        #expect(entries[1].keys.contains("serverName") == false, "nil is left out: \(entries[1])")
        let documented = try Self.documentedMembers()
        #expect(Set(entries[0].keys).subtracting(documented).isEmpty, "undocumented: \(Set(entries[0].keys).subtracting(documented))")
    }

    @Test func plainH2CJournalsNoServerNameWhateverTheAuthority() async throws {
        let apns = try await FakeAPNs.start()
        let port = apns.port
        let answer = try Self.push("http://\(Self.host):\(port)/3/device/\(APNsReasonTable.otherToken)",
                                   ["--http2-prior-knowledge", "--resolve", "\(Self.host):\(port):127.0.0.1"])
        await apns.stop()

        #expect(answer.hasPrefix("2 4"), "\(answer)")
        let entry = try #require(apns.journal.first)
        #expect(entry.serverName == nil, "the :authority names Apple's host, but no TLS means no SNI")
        #expect(entry.environment == .sandbox)
    }
}
