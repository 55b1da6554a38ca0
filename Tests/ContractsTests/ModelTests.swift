import Contracts
import Foundation
import Testing

/// Keeps the Codable models and the schemas in step: every valid fixture decodes into its
/// model, and every encoded model validates against its contract.
@Suite struct ModelTests {
    /// Decodes `bytes` into the model of `contract`, re-encodes it, and returns the encoding.
    static func roundTrip(_ bytes: [UInt8], contract: String) throws -> [UInt8]? {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        switch contract {
        case "device-registration": return Array(try encoder.encode(try decoder.decode(DeviceRegistration.self, from: data)))
        case "notification-opened": return Array(try encoder.encode(try decoder.decode(NotificationOpened.self, from: data)))
        case "payload": return Array(try encoder.encode(try decoder.decode(PushPayload.self, from: data)))
        case "apns-channel": return Array(try encoder.encode(try decoder.decode(APNsChannelConfiguration.self, from: data)))
        case "apns-error": return Array(try encoder.encode(try decoder.decode(APNsErrorResponse.self, from: data)))
        case "device-token": return Array(try encoder.encode(try decoder.decode(DeviceToken.self, from: data)))
        case "notification-id": return Array(try encoder.encode(try decoder.decode(NotificationID.self, from: data)))
        case "live-activity-payload": return Array(try encoder.encode(try decoder.decode(LiveActivityPush.self, from: data)))
        case "live-activity-registration": return Array(try encoder.encode(try decoder.decode(LiveActivityRegistration.self, from: data)))
        case "push-to-start-registration": return Array(try encoder.encode(try decoder.decode(PushToStartRegistration.self, from: data)))
        case "order-id": return Array(try encoder.encode(try decoder.decode(OrderID.self, from: data)))
        default: return nil
        }
    }

    @Test(arguments: FixtureCatalog.valid.filter { $0.contractName != "apns-file" })
    func validFixtureDecodesAndItsEncodingValidates(_ fixture: Fixture) throws {
        let contract = try #require(fixture.contract)
        let encoded = try #require(try ModelTests.roundTrip(fixture.bytes, contract: contract.name), "no model for \(contract.name)")
        let errors = contract.validate(bytes: encoded).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(fixture) re-encoded: \(String(decoding: encoded, as: UTF8.self))\n\(errors)")
    }

    @Test(arguments: FixtureCatalog.valid.filter { $0.contractName == "apns-file" })
    func simulatorFileDecodesAsAPayload(_ fixture: Fixture) throws {
        let payload = try JSONDecoder().decode(PushPayload.self, from: Data(fixture.bytes))
        let encoded = Array(try JSONEncoder().encode(payload))
        #expect(ContractSet.v1.contract(named: "payload")?.validate(bytes: encoded).isEmpty == true)
    }

    @Test func theSeedPayloadDecodesToTheSeedModel() throws {
        let fixture = try #require(FixtureCatalog.valid.first { $0.relativePath == "valid/payloads/seed-order-update.json" })
        let payload = try JSONDecoder().decode(PushPayload.self, from: Data(fixture.bytes))
        #expect(payload.aps.mutableContent)
        #expect(payload.aps.category == .orderUpdate)
        #expect(payload.aps.threadID == "order-8F3K")
        #expect(payload.aps.alert?.title == "On the way")
        #expect(payload.notificationID.rawValue == "91")
        #expect(payload.accountID == "a1")
        #expect(payload.destination == .order("8F3K"))
        #expect(payload.orderVersion == 7)
        #expect(payload.imageURL == "https://img.example.com/rider/12.jpg")
    }

    @Test func encodedModelsValidate() throws {
        let encoder = JSONEncoder()
        let key = "BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y="
        let id = try #require(NotificationID("91"))
        let cases: [(String, Data)] = [
            ("device-registration", try encoder.encode(DeviceRegistration(environment: .sandbox, appVersion: "4.2.0", publicKey: key))),
            ("notification-opened", try encoder.encode(NotificationOpened(action: .trackOrder))),
            ("payload", try encoder.encode(PushPayload(
                aps: .init(alert: .init(title: "On the way", body: "Your order is on the way"), category: .orderUpdate,
                           threadID: "order-8F3K", mutableContent: true),
                notificationID: id, accountID: "a1", route: Route.order("8F3K").description, orderVersion: 7,
                secret: "c2VjcmV0", imageURL: "https://img.example.com/rider/12.jpg"))),
            ("payload", try encoder.encode(PushPayload(aps: .init(contentAvailable: true), notificationID: id))),
            ("payload", try encoder.encode(PushPayload(
                aps: .init(alert: .init(body: "Alarm"), sound: .init(name: "alarm.caf", critical: true, volume: 0.5)), notificationID: id))),
            ("apns-error", try encoder.encode(APNsErrorResponse(reason: .unregistered, timestamp: 1_714_557_600_000))),
            ("apns-error", try encoder.encode(APNsErrorResponse(reason: .badTopic))),
            ("live-activity-registration", try encoder.encode(LiveActivityRegistration(
                pushToken: try #require(DeviceToken("A1C7E0")), environment: .production))),
            ("push-to-start-registration", try encoder.encode(PushToStartRegistration(pushToStartToken: try #require(DeviceToken(bytes: [0x5A, 0x01]))))),
            ("order-id", try encoder.encode(try #require(OrderID("8F3K")))),
        ]
        for (name, data) in cases {
            let violations = try #require(ContractSet.v1.contract(named: name)).validate(bytes: Array(data))
            #expect(violations.isEmpty, "\(name): \(String(decoding: data, as: UTF8.self)) → \(violations)")
        }
    }

    @Test func flagsAreWrittenAsIntegers() throws {
        let aps = PushPayload.APS(alert: .init(body: "Hi"), contentAvailable: false, mutableContent: true)
        let text = String(decoding: try JSONEncoder().encode(aps), as: UTF8.self)
        #expect(text.contains("\"mutable-content\":1"))
        #expect(!text.contains("content-available"))
        #expect(!text.contains("true"))
    }

    @Test func routeParsesTheThreeFormsAndNothingElse() {
        #expect(Route("home") == .home)
        #expect(Route("orders/8F3K") == .order("8F3K"))
        #expect(Route("offers/FREEDEL18") == .offer("FREEDEL18"))
        for unreadable in ["", "Home", "orders/", "orders/8F3K/items", "offers/a b", "wallet/1", "/orders/8F3K", "orders/" + String(repeating: "x", count: 65)] {
            #expect(Route(unreadable) == nil, "\(unreadable) should not parse")
        }
        for route in [Route.home, .order("8F3K"), .offer("x_1-2")] {
            #expect(Route(route.description) == route)
        }
    }

    @Test func deviceTokenIsHexLowercased() throws {
        let token = try #require(DeviceToken("E3B53618DC34756B"))
        #expect(token.hex == "e3b53618dc34756b")
        #expect(token == DeviceToken("e3b53618dc34756b"))
        #expect(token.bytes == [0xE3, 0xB5, 0x36, 0x18, 0xDC, 0x34, 0x75, 0x6B])
        #expect(DeviceToken(bytes: token.bytes) == token)
        for bad in ["", "e", "e3b", "zz", "<e3b5>", "e3 b5", String(repeating: "ab", count: 101)] {
            #expect(DeviceToken(bad) == nil, "\(bad) should be rejected")
        }
        #expect(DeviceToken(String(repeating: "ab", count: 100)) != nil)
        #expect(DeviceToken(bytes: []) == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeviceToken.self, from: Data("\"xyz\"".utf8)) }
    }

    @Test func notificationIDAcceptsTheIdentifierCharset() {
        #expect(NotificationID("91")?.rawValue == "91")
        #expect(NotificationID("a_b-C9") != nil)
        #expect(NotificationID(String(repeating: "x", count: 64)) != nil)
        for bad in ["", "91/opened", "a b", "é", String(repeating: "x", count: 65)] {
            #expect(NotificationID(bad) == nil, "\(bad) should be rejected")
        }
    }

    @Test func everyAPNsReasonHasItsStatus() throws {
        #expect(APNsErrorReason.allCases.count == 41)
        #expect(APNsErrorReason.badDeviceToken.status == 400)
        #expect(APNsErrorReason.badEnvironmentKeyInToken.status == 403)
        // What APNs returns, and the spelling in Apple's table, decode to the same reason.
        #expect(APNsErrorReason(rawValue: "BadEnvironmentKeyInToken") == .badEnvironmentKeyInToken)
        #expect(APNsErrorReason(rawValue: "BadEnvironmentKeyIdInToken") == .badEnvironmentKeyInToken)
        #expect(APNsErrorReason.badEnvironmentKeyInToken.documentedName == "BadEnvironmentKeyIdInToken")
        let decoded = try JSONDecoder().decode(APNsErrorResponse.self, from: Data(#"{"reason":"BadEnvironmentKeyIdInToken"}"#.utf8))
        #expect(decoded.reason == .badEnvironmentKeyInToken)
        #expect(APNsErrorReason(rawValue: "BadEnvironmentKeyIDInToken") == nil)
        #expect(APNsErrorReason.badPath.status == 404)
        #expect(APNsErrorReason.methodNotAllowed.status == 405)
        #expect(APNsErrorReason.unregistered.status == 410)
        #expect(APNsErrorReason.expiredToken.carriesTimestamp)
        #expect(APNsErrorReason.payloadTooLarge.status == 413)
        #expect(APNsErrorReason.tooManyRequests.status == 429)
        #expect(APNsErrorReason.internalServerError.status == 500)
        #expect(APNsErrorReason.shutdown.status == 503)
        let counts = Dictionary(grouping: APNsErrorReason.allCases, by: \.status).mapValues(\.count)
        // Issue 29 added Apple's broadcast and channel reasons: eight 400s and 404 ChannelNotRegistered.
        #expect(counts == [400: 22, 403: 8, 404: 2, 405: 1, 410: 2, 413: 1, 429: 2, 500: 1, 503: 2])
        #expect(APNsErrorReason.channelNotRegistered.status == 404)
        #expect(APNsErrorReason(rawValue: "TooManyProviderTokenUpdates") == .tooManyProviderTokenUpdates)
    }
}
