@testable import PushCore
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// A key that counts how often it verifies, to show the per-connection cache.
final class CountingKey: ProviderTokenVerificationKey {
    let verifications = Locked(0)
    func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool {
        verifications.withLock { $0 += 1 }
        return raw64 == APNsTestbed.secret
    }
}

@Suite struct FakeAPNsResponseTests {
    typealias T = APNsTestbed

    @Test func successEchoesApnsIDAndSendsUniqueIDInSandbox() {
        let bed = T()
        let id = "0a9f3c57-1b6e-4a4b-9c1e-2f0d1e6b7a10"
        let response = bed.fake.handle(T.push(headers: [("apns-id", id)]))
        #expect(response.status.code == 200)
        #expect(response.headers["apns-id"] == id)
        #expect(response.headers["apns-unique-id"].map(APNsRequestValidator.isUUID) == true)
        #expect(response.body.isEmpty)
    }

    @Test func generatedApnsIDIsAnUppercaseUUIDAndProductionSendsNoUniqueID() {
        let bed = T { $0.environment = .production }
        bed.fake.register(token: T.token, topic: T.topic, environment: .production)
        let response = bed.fake.handle(T.push())
        #expect(response.status.code == 200)
        let id = response.headers["apns-id"] ?? ""
        #expect(APNsRequestValidator.isUUID(id))
        #expect(id == id.uppercased())
        #expect(response.headers["apns-unique-id"] == nil)
    }

    @Test func unregisteredCarriesTheTimestampUntilRegisteredAgain() throws {
        let bed = T()
        bed.fake.unregister(token: T.token, at: Date(timeIntervalSince1970: 1_699_999_000.5))
        let response = bed.fake.handle(T.push())
        #expect(response.status.code == 410)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect((object["timestamp"] as? NSNumber)?.int64Value == 1_699_999_000_500)
        #expect(bed.fake.handle(T.push()).status.code == 410)
        bed.fake.register(token: T.token, topic: T.topic)
        #expect(bed.fake.handle(T.push()).status.code == 200)
    }

    @Test func aVerifiedTokenIsCachedPerConnection() {
        let bed = T()
        let key = CountingKey()
        bed.fake.registerSigningKey(key, keyID: T.keyID, teamID: T.teamID)
        for _ in 0..<5 { #expect(bed.fake.handle(T.push(connection: 7)).status.code == 200) }
        #expect(key.verifications.snapshot == 1)
        #expect(bed.fake.handle(T.push(connection: 8)).status.code == 200)
        #expect(key.verifications.snapshot == 2)
    }

    @Test func aCachedTokenExpiresAfterAnHourOnTheFakeClock() {
        let bed = T()
        #expect(bed.fake.handle(T.push()).status.code == 200)
        bed.clock.advance(seconds: 3601)
        #expect(reason(of: bed.fake.handle(T.push())) == "ExpiredProviderToken")
        // Replacing an expired token is allowed at once.
        let fresh = T.providerToken(issuedAt: T.start / 1000 + 3601)
        #expect(bed.fake.handle(T.push(headers: [("authorization", "bearer " + fresh)])).status.code == 200)
    }

    @Test func aNewTokenAfterTwentyMinutesIsAccepted() {
        let bed = T()
        #expect(bed.fake.handle(T.push()).status.code == 200)
        bed.clock.advance(seconds: 1199)
        let second = T.providerToken(issuedAt: T.start / 1000 + 1199)
        #expect(reason(of: bed.fake.handle(T.push(headers: [("authorization", "bearer " + second)]))) == "TooManyProviderTokenUpdates")
        bed.clock.advance(seconds: 2)
        #expect(bed.fake.handle(T.push(headers: [("authorization", "bearer " + second)])).status.code == 200)
    }

    @Test func ignoringProviderTokensAcceptsARequestWithout() {
        let bed = T { $0.providerTokens = .ignore }
        #expect(bed.fake.handle(T.push(headers: [("authorization", nil)])).status.code == 200)
    }

    @Test func acceptAnyTokenMakesEveryWellFormedTokenADevice() {
        let bed = T { $0.acceptAnyDeviceToken = true }
        let token = String(repeating: "0f", count: 40)
        #expect(bed.fake.handle(T.push(token: token)).status.code == 200)
        #expect(bed.fake.deliveredNotifications(for: token).count == 1)
        #expect(reason(of: bed.fake.handle(T.push(token: "0f0"))) == "BadDeviceToken")
    }

    @Test func violationsAreJournaledInRecordOnlyMode() {
        let bed = T(inspector: APNsReasonTable.violatingInspector)
        #expect(bed.fake.handle(T.push()).status.code == 200)
        #expect(bed.fake.journal.last?.violations.map(\.ruleID) == ["payload.required"])
    }

    @Test func malformedRequestsAreRejectedBeforeDeviceState() {
        // A bad priority to an unregistered token is BadPriority, not 410: the sender must
        // not delete a token because of its own malformed request.
        let bed = T()
        bed.fake.unregister(token: T.token)
        #expect(reason(of: bed.fake.handle(T.push(headers: [("apns-priority", "3")]))) == "BadPriority")
    }

    @Test func errorBodiesAreSingleJSONObjects() throws {
        let bed = T()
        let response = bed.fake.handle(T.push(headers: [("apns-topic", nil)]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(object.count == 1)
        #expect(object["reason"] as? String == "MissingTopic")
    }
}

@Suite struct PayloadContractTests {
    typealias T = APNsTestbed
    static let booleanFlag = Array(#"{"aps":{"alert":{"title":"t","body":"b"},"mutable-content":true},"notificationId":"91"}"#.utf8)

    @Test func theV1PayloadContractIsCheckedByDefaultAndRecorded() throws {
        let bed = T()
        #expect(bed.fake.handle(T.push()).status.code == 200)
        #expect(bed.fake.journal.last?.violations == [])
        #expect(bed.fake.handle(T.push(body: Self.booleanFlag)).status.code == 200)
        let violations = try #require(bed.fake.journal.last?.violations)
        #expect(violations.contains { $0.pointer == "/aps/mutable-content" })
    }

    @Test func rejectModeAnswers400WithTheFakeOnlyReason() {
        let bed = T { $0.payloadContract = .reject }
        let response = bed.fake.handle(T.push(body: Self.booleanFlag))
        #expect(response.status.code == 400)
        #expect(reason(of: response) == "FakeAPNsPayloadContractViolation")
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        #expect(bed.fake.handle(T.push()).status.code == 200)
    }

    @Test func deliveredPayloadsDecodeAsThePushPayloadModel() throws {
        let bed = T()
        _ = bed.fake.handle(T.push())
        let delivered = try #require(bed.fake.deliveredNotifications(for: T.token).first)
        #expect(delivered.pushPayload?.notificationID.rawValue == "91")
    }
}

@Suite struct SmallPartsTests {
    @Test(arguments: [("bearer abc", "abc"), ("Bearer  abc ", "abc"), ("\tBEARER\tabc", "abc"),
                      ("bearer", ""), ("bearerabc", ""), ("basic abc", ""), ("", ""), ("bearer é.x", "é.x")])
    func bearerToken(_ header: String, _ token: String) {
        #expect(FakeAPNs.bearerToken(header) == token)
    }

    /// An id spells its generator's two words in order, 8-4-4-4-12, with the version and
    /// variant bits set, in either case (issue 41: written group by group).
    @Test func identifiersSpellTheirWordsInOrder() {
        for seed in 0..<64 {
            for uppercase in [true, false] {
                var generator = SplitMix64(seed: UInt64(seed))
                var reference = SplitMix64(seed: UInt64(seed))
                let high = (reference.next() & ~0xF000) | 0x4000
                let low = (reference.next() & ~(0xC << 60)) | (0x8 << 60)
                let hex = Array([high, low].map { word -> String in
                    let digits = String(word, radix: 16, uppercase: uppercase)
                    return String(repeating: "0", count: 16 - digits.count) + digits
                }.joined())
                let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
                #expect(APNsIdentifier.make(uppercase: uppercase, using: &generator) == groups.joined(separator: "-"))
            }
        }
    }

    @Test func generatedIdentifiersAreVersion4UUIDs() {
        let ids = (0..<100).map { _ in APNsIdentifier.make() }
        #expect(ids.allSatisfy { APNsRequestValidator.isUUID($0) && $0 == $0.uppercased() })
        #expect(ids.allSatisfy { Array($0.utf8)[14] == UInt8(ascii: "4") })
        #expect(ids.allSatisfy { "89AB".utf8.contains(Array($0.utf8)[19]) })
        #expect(Set(ids).count == 100)
        let lower = APNsIdentifier.make(uppercase: false)
        #expect(lower == lower.lowercased())
    }
}

@Suite struct FramingTests {
    @Test(arguments: [
        ("/3/device/abcd", "abcd"), ("/3/device/abcd?x=1", "abcd"), ("/3/device/", "MissingDeviceToken"),
        ("/3/device", "MissingDeviceToken"), ("/3/device?x", "MissingDeviceToken"), ("/3/devices/ab", "BadPath"),
        ("/3/device/ab/cd", "BadPath"), ("/2/device/ab", "BadPath"), ("/", "BadPath"), ("", "BadPath"),
        ("/3/device/ABcdEF09?x", "abcdef09"), ("/3/device/XYZ", "XYZ"), ("/3/devicE/ab", "BadPath"),
    ])
    func pathFraming(_ path: String, _ expected: String) {
        let request = HTTPRequest(method: "POST", path: path)
        switch APNsRequestValidator().checkFraming(request) {
        case .success(let token): #expect(String(token) == expected)
        case .failure(let reason): #expect(reason.reason == expected)
        }
    }
}

/// `APNsRequestHeaders` reads every APNs header in one pass: it must answer what
/// `HTTPFields`' subscript answers (first value, any case of the name) and see duplicates.
@Suite struct APNsRequestHeadersTests {
    static let names = ["authorization", "apns-id", "apns-topic", "apns-push-type", "apns-priority",
                        "apns-expiration", "apns-collapse-id"]

    static func read(_ headers: APNsRequestHeaders) -> [String?] {
        [headers.authorization, headers.apnsID, headers.topic, headers.pushType, headers.priority,
         headers.expiration, headers.collapseID]
    }

    @Test func agreesWithTheSubscriptAndSeesDuplicates() {
        var generator = SplitMix64(seed: 7)
        let spellings = Self.names + ["APNS-Topic", "Authorization", "apns-idx", "apns-i", "x-apns-id", "apns-collapse-iD", "content-type",
                                      "AUTHORIZATION", "apns-Priority", "auns-priority", "aXthorization", "apns-topix"]
        for _ in 0..<2_000 {
            var fields = HTTPFields()
            var seen: [String: Int] = [:]
            for index in 0..<Int(generator.next() % 8) {
                let name = spellings[Int(generator.next() % UInt64(spellings.count))]
                fields.append(name: name, value: "v\(index)")
                if let slot = Self.names.firstIndex(where: { HTTPFields.namesEqual($0, name) }) { seen[Self.names[slot], default: 0] += 1 }
            }
            let headers = APNsRequestHeaders(fields)
            #expect(Self.read(headers) == Self.names.map { fields[$0] }, "\(Array(fields).map(\.name))")
            #expect(headers.hasDuplicates == seen.values.contains { $0 > 1 }, "\(Array(fields).map(\.name))")
        }
    }
}

@Suite struct PayloadInspectionCacheTests {
    @Test func payloadsThatDifferAnywhereGetDifferentKeys() {
        var template = Array(#"{"aps":{"alert":"0000000000"},"n":"0000000000","pad":"xxxxxxx"}"#.utf8)
        let digits = (template.firstIndex(of: UInt8(ascii: "0")) ?? 0)..<((template.firstIndex(of: UInt8(ascii: "0")) ?? 0) + 10)
        var keys = Set<Int>()
        var payloads = Set<[UInt8]>()
        for number in 0..<5_000 {
            var n = number
            for position in digits.reversed() {
                template[position] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            }
            for payload in [template, Array(template.prefix(number % template.count))] {
                keys.insert(PayloadInspectionCache.key(of: payload))
                payloads.insert(payload)
            }
        }
        #expect(keys.count == payloads.count)
    }

    /// A hit is confirmed by comparing the bytes (issue 41: by memcmp): any byte, the last
    /// included, and the length tell two payloads apart.
    @Test func aHitIsConfirmedByEveryByte() {
        let payload = Array(#"{"aps":{"alert":"hello"},"pad":"xxxxxxxx"}"#.utf8)
        #expect(PayloadInspectionCache.sameBytes(payload, Array(payload)))
        #expect(PayloadInspectionCache.sameBytes([], []))
        for index in [0, payload.count / 2, payload.count - 1] {
            var other = payload
            other[index] ^= 0x01
            #expect(!PayloadInspectionCache.sameBytes(payload, other), "byte \(index)")
        }
        #expect(!PayloadInspectionCache.sameBytes(payload, Array(payload.dropLast())))
        #expect(!PayloadInspectionCache.sameBytes([], [0]))
    }

    @Test func identicalPayloadsAreInspectedOnceAndOthersAgain() {
        let calls = Locked(0)
        let inspector: PayloadInspector = { bytes in
            calls.withLock { $0 += 1 }
            return PayloadInspection(isJSONObject: bytes.first == UInt8(ascii: "{"))
        }
        let cache = PayloadInspectionCache(capacity: 2)
        for _ in 0..<5 { #expect(cache.inspection(of: Array("{}".utf8), inspector).isJSONObject) }
        #expect(calls.snapshot == 1)
        #expect(!cache.inspection(of: Array("[]".utf8), inspector).isJSONObject)
        #expect(calls.snapshot == 2)
        _ = cache.inspection(of: Array("{ }".utf8), inspector)   // full: starts over
        _ = cache.inspection(of: Array("{}".utf8), inspector)
        #expect(calls.snapshot == 4)
    }
}
