import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs
import PushTestSupport

@Suite struct AdminRoutesTests {
    typealias T = APNsTestbed

    static func call(_ fake: FakeAPNs, _ method: String, _ path: String, _ body: String = "") -> HTTPResponse {
        let bare = path.split(separator: "?").first.map(String.init) ?? path
        guard let route = fake.adminRoutes.first(where: { $0.method == method && $0.path == bare }) else {
            return HTTPResponse(status: .notFound)
        }
        return route.handler(HTTPRequest(method: method, path: path, body: Array(body.utf8)))
    }

    static func object(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test func registerTokenThenPushThenReadJournalAndDeliveries() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        #expect(Self.call(bed.fake, "POST", "/apns/tokens", #"{"token":"\#(other)","topic":"com.example.app"}"#).status.code == 204)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 200)
        let journal = Self.object(Self.call(bed.fake, "GET", "/apns/journal"))
        let entries = journal["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == 1)
        #expect(entries.first?["status"] as? Int == 200)
        let view = Self.object(Self.call(bed.fake, "GET", "/apns/deliveries?token=\(other)"))
        #expect((view["delivered"] as? [[String: Any]])?.count == 1)
        #expect(view["online"] as? Bool == true)
    }

    @Test func unregisterGives410WithTheGivenTime() {
        let bed = T()
        #expect(Self.call(bed.fake, "POST", "/apns/tokens/unregister", #"{"token":"\#(T.token)","at":1699999000000}"#).status.code == 204)
        let response = bed.fake.handle(T.push())
        #expect(response.status.code == 410)
        #expect(String(decoding: response.body, as: UTF8.self).contains("1699999000000"))
    }

    /// Apple sends a timestamp with every 410; a scripted one is no exception.
    @Test func aScripted410CarriesNowOrTheGivenTimestamp() {
        let bed = T()
        bed.clock.advance(seconds: 1.234)
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":410,"reason":"Unregistered"},"count":1}"#).status.code == 201)
        let now = bed.fake.handle(T.push())
        #expect(now.status.code == 410)
        #expect(String(decoding: now.body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":\#(T.start + 1234)}"#)
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":410,"reason":"ExpiredToken","timestamp":1600000000000},"count":1}"#).status.code == 201)
        let given = bed.fake.handle(T.push())
        #expect(String(decoding: given.body, as: UTF8.self) == #"{"reason":"ExpiredToken","timestamp":1600000000000}"#)
    }

    @Test func keysFromPEMAreVerified() throws {
        let bed = T()
        let key = APNsSigningKey.generate()
        let pem = key.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        #expect(Self.call(bed.fake, "POST", "/apns/keys", #"{"keyID":"PEMKEY0001","teamID":"\#(T.teamID)","pem":"\#(pem)"}"#).status.code == 204)
        let token = ProviderToken.mint(keyID: "PEMKEY0001", teamID: T.teamID,
                                       issuedAt: Date(timeIntervalSince1970: Double(T.start / 1000)), signingKey: key)
        #expect(bed.fake.handle(T.push(headers: [("authorization", "bearer " + token)])).status.code == 200)
        #expect(Self.call(bed.fake, "POST", "/apns/keys", #"{"keyID":"K","teamID":"T","pem":"nope"}"#).status.code == 400)
    }

    @Test func faultsCanBeSetAndCleared() {
        let bed = T()
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":500,"reason":"InternalServerError"},"count":1}"#).status.code == 201)
        #expect(bed.fake.handle(T.push()).status.code == 500)
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"kind":"loseResponse"},"count":5}"#).status.code == 201)
        #expect(Self.call(bed.fake, "DELETE", "/apns/faults").status.code == 204)
        #expect(bed.fake.handle(T.push()).disposition == .send)
    }

    @Test func badAdminBodiesSayWhatToSend() {
        let bed = T()
        let missing = Self.call(bed.fake, "POST", "/apns/tokens", #"{"topic":"com.example.app"}"#)
        #expect(missing.status.code == 400)
        #expect(missing.headers["content-type"] == "application/problem+json")
        #expect((Self.object(missing)["detail"] as? String)?.contains("/token") == true)
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"kind":"explode"},"count":1}"#).status.code == 400)
        #expect(Self.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"kind":"reset"}}"#).status.code == 400)
        #expect(Self.call(bed.fake, "POST", "/apns/tokens", "not json").status.code == 400)
        #expect(Self.call(bed.fake, "GET", "/apns/deliveries").status.code == 400)
    }

    @Test func devicesGoOfflineAndBackOnline() {
        let bed = T()
        #expect(Self.call(bed.fake, "POST", "/apns/devices/online", #"{"token":"\#(T.token)","online":false}"#).status.code == 204)
        _ = bed.fake.handle(T.push())
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        #expect(Self.call(bed.fake, "POST", "/apns/devices/online", #"{"token":"\#(T.token)","online":true}"#).status.code == 204)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
    }

    @Test func everyRouteIsUnderApnsAndSummarised() {
        let routes = APNsTestbed().fake.adminRoutes
        // GET /events is the one shared route: FakeAPNs adds its `apns` part to it.
        #expect(routes.allSatisfy { ($0.path.hasPrefix("/apns/") || $0.eventSource?.name == "apns") && !$0.summary.isEmpty })
        #expect(routes.filter { $0.eventSource != nil }.map(\.path) == ["/events"])
        #expect(Set(routes.map { "\($0.method) \($0.path)" }).count == routes.count)
    }

    @Test func keySpecsParseAndLoad() throws {
        let key = APNsSigningKey.generate()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8")
        try Data(key.pemRepresentation.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let spec = try APNsKeySpec(parsing: "ABC123DEFG:DEF123GHIJ:\(file.path)")
        #expect(spec.keyID == "ABC123DEFG" && spec.teamID == "DEF123GHIJ")
        #expect(try spec.loadPublicKey() == key.publicKey)
        #expect(throws: FakeAPNsError.badKeySpec) { try APNsKeySpec(parsing: "ABC123DEFG:/tmp/x.p8") }
        #expect(throws: FakeAPNsError.badKeySpec) { try APNsKeySpec(parsing: "A:B:/no/such/file.p8").loadPublicKey() }
    }
}

/// Docs/admin-openapi-apns.json describes exactly the routes FakeAPNs adds to the admin API.
@Suite struct APNsAdminOpenAPIDocumentTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let document = try OpenAPIOperations("Docs/admin-openapi-apns.json")
        #expect(document.version == "3.1.0")
        let documented = document.operations
        let served = Set(APNsTestbed().fake.adminRoutes.map { "\($0.method) \($0.path)" })
        #expect(documented == served)
    }
}

/// The /apns/ routes use the admin API's strict decoder: before it, a misspelt optional key
/// was ignored (the token registered in the default environment).
@Suite struct AdminRoutesStrictBodyTests {
    @Test func aMisspeltOptionalKeyIsA400NamingIt() {
        let bed = APNsTestbed()
        let other = APNsReasonTable.otherToken
        let response = AdminRoutesTests.call(bed.fake, "POST", "/apns/tokens",
                                             #"{"token":"\#(other)","topic":"com.example.app","enviroment":"production"}"#)
        #expect(response.status.code == 400)
        #expect((AdminRoutesTests.object(response)["detail"] as? String)?.hasPrefix(#"/enviroment: unknown member "enviroment"; did you mean "environment"?"#) == true)
        #expect(AdminRoutesTests.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"kind":"reset","delay":"5"},"count":1}"#)
            .status.code == 400)
    }
}
