import LoopbackHTTP
import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// One row of the reason table: how to provoke one answer, and the answer.
struct ReasonCase: Sendable, CustomTestStringConvertible {
    var status: Int
    var reason: String?
    var note: String
    var configure: @Sendable (inout FakeAPNs.Configuration) -> Void = { _ in }
    var inspector: PayloadInspector = PayloadInspectors.default
    /// Prepares the testbed and returns the requests to send; the last one's answer is
    /// checked (earlier ones set the scene on the same connection).
    var requests: @Sendable (APNsTestbed) -> [HTTPRequest]

    var testDescription: String { "\(status) \(reason ?? "OK") — \(note)" }
}

enum APNsReasonTable {
    typealias T = APNsTestbed
    static let otherToken = String(repeating: "cd", count: 32)

    static let cases: [ReasonCase] = [
        ReasonCase(status: 200, reason: nil, note: "a valid alert push") { _ in [T.push()] },
        ReasonCase(status: 405, reason: "MethodNotAllowed", note: "GET") { _ in [T.push(method: "GET")] },
        ReasonCase(status: 404, reason: "BadPath", note: "/3/devices/…") { _ in
            var r = T.push(); r.path = "/3/devices/" + T.token; return [r]
        },
        ReasonCase(status: 400, reason: "MissingDeviceToken", note: "/3/device/") { _ in
            var r = T.push(); r.path = "/3/device/"; return [r]
        },
        ReasonCase(status: 400, reason: "DuplicateHeaders", note: "apns-topic twice") { _ in
            var r = T.push(); r.headers.append(name: "apns-topic", value: T.topic); return [r]
        },
        ReasonCase(status: 400, reason: "BadMessageId", note: "apns-id not a UUID") { _ in
            [T.push(headers: [("apns-id", "not-a-uuid")])]
        },
        ReasonCase(status: 403, reason: "MissingProviderToken", note: "no authorization") { _ in
            [T.push(headers: [("authorization", nil)])]
        },
        ReasonCase(status: 403, reason: "InvalidProviderToken", note: "tampered signature") { _ in
            [T.push(headers: [("authorization", "bearer " + T.providerToken(signature: Array(repeating: 0x01, count: 64)))])]
        },
        ReasonCase(status: 403, reason: "InvalidProviderToken", note: "unknown key id") { _ in
            [T.push(headers: [("authorization", "bearer " + T.providerToken(keyID: "NOSUCHKEY0"))])]
        },
        ReasonCase(status: 403, reason: "InvalidProviderToken", note: "key registered for another team") { _ in
            [T.push(headers: [("authorization", "bearer " + T.providerToken(teamID: "OTHERTEAM0"))])]
        },
        ReasonCase(status: 403, reason: "InvalidProviderToken", note: "not a JWT") { _ in
            [T.push(headers: [("authorization", "bearer hello")])]
        },
        ReasonCase(status: 403, reason: "InvalidProviderToken", note: "alg HS256") { _ in
            [T.push(headers: [("authorization", "bearer " + T.providerToken(algorithm: "HS256"))])]
        },
        ReasonCase(status: 403, reason: "BadEnvironmentKeyInToken", note: "production-only key, sandbox fake") { bed in
            bed.fake.registerSigningKey(StubKey(secret: T.secret), keyID: "PRODKEY001", teamID: T.teamID, environment: .production)
            return [T.push(headers: [("authorization", "bearer " + T.providerToken(keyID: "PRODKEY001"))])]
        },
        ReasonCase(status: 403, reason: "UnrelatedKeyIdInToken", note: "another team's key on the same connection") { bed in
            bed.fake.registerSigningKey(StubKey(secret: T.secret), keyID: "OTHERKEY01", teamID: "OTHERTEAM0")
            return [T.push(), T.push(headers: [("authorization", "bearer " + T.providerToken(keyID: "OTHERKEY01", teamID: "OTHERTEAM0"))])]
        },
        ReasonCase(status: 429, reason: "TooManyProviderTokenUpdates", note: "a second token (iat 1 s later) on the same connection") { _ in
            let first = T.push()
            return [first, T.push(headers: [("authorization", "bearer " + T.providerToken(issuedAt: T.start / 1000 + 1))])]
        },
        ReasonCase(status: 403, reason: "ExpiredProviderToken", note: "iat 3601 s ago") { _ in
            [T.push(headers: [("authorization", "bearer " + T.providerToken(issuedAt: T.start / 1000 - 3601))])]
        },
        ReasonCase(status: 400, reason: "MissingTopic", note: "no apns-topic") { _ in
            [T.push(headers: [("apns-topic", nil)])]
        },
        ReasonCase(status: 400, reason: "InvalidPushType", note: "apns-push-type: banner") { _ in
            [T.push(headers: [("apns-push-type", "banner")])]
        },
        ReasonCase(status: 400, reason: "BadTopic", note: "voip push to the bare bundle id") { _ in
            [T.push(headers: [("apns-push-type", "voip")])]
        },
        ReasonCase(status: 400, reason: "BadTopic", note: "alert push to a .voip topic") { _ in
            [T.push(headers: [("apns-topic", T.topic + ".voip")])]
        },
        ReasonCase(status: 400, reason: "TopicDisallowed", note: "a bundle id the fake does not serve",
                   configure: { $0.topics = [APNsTestbed.topic] }) { _ in
            [T.push(headers: [("apns-topic", "com.other.app")])]
        },
        // A suffixed topic is served by its bundle id (the suffix cut off before the lookup).
        ReasonCase(status: 200, reason: nil, note: "voip push to a served bundle id's .voip topic",
                   configure: { $0.topics = [APNsTestbed.topic] }) { bed in
            bed.fake.register(token: T.token, topic: T.topic + ".voip")
            return [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", T.topic + ".voip")])]
        },
        ReasonCase(status: 400, reason: "TopicDisallowed", note: "voip push to another bundle id's .voip topic",
                   configure: { $0.topics = [APNsTestbed.topic] }) { _ in
            [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", "com.other.app.voip")])]
        },
        ReasonCase(status: 400, reason: "BadTopic", note: "voip push to a topic that is only the suffix") { _ in
            [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", ".voip")])]
        },
        ReasonCase(status: 400, reason: "BadTopic", note: "voip push to a .voip-ptt topic") { _ in
            [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", T.topic + ".voip-ptt")])]
        },
        ReasonCase(status: 400, reason: "BadTopic", note: "a topic with a space") { _ in
            [T.push(headers: [("apns-topic", "com.example app")])]
        },
        ReasonCase(status: 400, reason: "BadPriority", note: "apns-priority: 7") { _ in
            [T.push(headers: [("apns-priority", "7")])]
        },
        ReasonCase(status: 400, reason: "BadPriority", note: "background push with priority 10") { _ in
            [T.push(headers: [("apns-push-type", "background"), ("apns-priority", "10")])]
        },
        ReasonCase(status: 400, reason: "BadExpirationDate", note: "apns-expiration: soon") { _ in
            [T.push(headers: [("apns-expiration", "soon")])]
        },
        ReasonCase(status: 400, reason: "BadCollapseId", note: "65-byte collapse id") { _ in
            [T.push(headers: [("apns-collapse-id", String(repeating: "c", count: 65))])]
        },
        ReasonCase(status: 400, reason: "BadDeviceToken", note: "token not hex") { _ in
            [T.push(token: "xyz")]
        },
        ReasonCase(status: 400, reason: "BadDeviceToken", note: "token unknown to the registry") { _ in
            [T.push(token: otherToken)]
        },
        ReasonCase(status: 400, reason: "BadDeviceToken", note: "token of the other environment") { bed in
            bed.fake.register(token: otherToken, topic: T.topic, environment: .production)
            return [T.push(token: otherToken)]
        },
        ReasonCase(status: 400, reason: "PayloadEmpty", note: "no body") { _ in [T.push(body: [])] },
        ReasonCase(status: 413, reason: "PayloadTooLarge", note: "4097-byte alert") { _ in
            [T.push(body: jsonPayload(size: 4097))]
        },
        ReasonCase(status: 413, reason: "PayloadTooLarge", note: "5121-byte voip") { bed in
            bed.fake.register(token: T.token, topic: T.topic + ".voip")
            return [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", T.topic + ".voip")], body: jsonPayload(size: 5121))]
        },
        ReasonCase(status: 200, reason: nil, note: "5120-byte voip") { bed in
            bed.fake.register(token: T.token, topic: T.topic + ".voip")
            return [T.push(headers: [("apns-push-type", "voip"), ("apns-topic", T.topic + ".voip")], body: jsonPayload(size: 5120))]
        },
        ReasonCase(status: 400, reason: "FakeAPNsInvalidPayloadJSON", note: "payload not JSON") { _ in
            [T.push(body: Array("hello".utf8))]
        },
        ReasonCase(status: 400, reason: "FakeAPNsPayloadContractViolation", note: "contract violation in reject mode",
                   configure: { $0.payloadContract = .reject }, inspector: violatingInspector) { _ in [T.push()] },
        ReasonCase(status: 200, reason: nil, note: "contract violation in record-only mode",
                   inspector: violatingInspector) { _ in [T.push()] },
        ReasonCase(status: 400, reason: "DeviceTokenNotForTopic", note: "token registered for another app") { bed in
            bed.fake.register(token: otherToken, topic: "com.other.app")
            return [T.push(token: otherToken)]
        },
        ReasonCase(status: 410, reason: "Unregistered", note: "unregistered at T") { bed in
            bed.fake.unregister(token: T.token, at: Date(timeIntervalSince1970: 1_699_999_000))
            return [T.push()]
        },
        ReasonCase(status: 429, reason: "TooManyRequests", note: "second push within the window",
                   configure: { $0.throttle = ThrottlePolicy(limit: 1, windowSeconds: 60) }) { _ in
            [T.push(), T.push()]
        },
    ]

    static let violatingInspector: PayloadInspector = { bytes in
        PayloadInspection(isJSONObject: true, violations: [
            Violation(pointer: "/notificationId", ruleID: "payload.required", message: "notificationId is required"),
        ])
    }

    /// A JSON object of exactly `size` bytes.
    static func jsonPayload(size: Int) -> [UInt8] {
        let prefix = #"{"aps":{"alert":"x"},"pad":""#
        let suffix = #""}"#
        let padding = max(0, size - prefix.utf8.count - suffix.utf8.count)
        return Array((prefix + String(repeating: "p", count: padding) + suffix).utf8)
    }
}

@Suite struct APNsReasonTableTests {
    @Test(arguments: APNsReasonTable.cases)
    func handlerAnswers(_ row: ReasonCase) {
        let bed = APNsTestbed(row.configure, inspector: row.inspector)
        let requests = row.requests(bed)
        var last: HTTPResponse?
        for request in requests { last = bed.fake.handle(request) }
        guard let response = last else { Issue.record("no request"); return }
        #expect(response.status.code == row.status)
        #expect(reason(of: response) == row.reason)
        if row.status == 200 {
            #expect(response.body.isEmpty)
        } else {
            #expect(response.headers["content-type"] == "application/json")
        }
        #expect(response.headers["apns-id"] != nil)
        let entry = bed.fake.journal.last
        #expect(entry?.status == row.status)
        #expect(entry?.reason == row.reason)
    }

    /// The rows cover exactly the reasons FakeAPNs' `fakeSource` says validation produces,
    /// plus the two fake-only ones.
    @Test func everyValidationReasonOfTheTableHasARow() {
        let covered = Set(APNsReasonTable.cases.compactMap(\.reason))
        let validation = APNsErrorReason.allCases.filter { $0.fakeSource == .validation }.map(\.rawValue)
        let fakeOnly = [APNsReason.invalidPayloadJSON, .payloadContractViolation].map(\.reason)
        // These need a TLS client certificate, which the table's socket runs (h2c) cannot
        // carry: CertificateAuthenticationTests and CertificateInteropTests provoke them.
        let certificateOnly = [APNsReason.badCertificate, .badCertificateEnvironment].map(\.reason)
        #expect(covered.union(certificateOnly) == Set(validation + fakeOnly))
    }

    @Test func rowStatusesAreTheTables() {
        for row in APNsReasonTable.cases {
            guard let name = row.reason, let reason = APNsErrorReason(rawValue: name) else { continue }
            #expect(row.status == reason.status, "\(name)")
            #expect(APNsReason(reason) == APNsReason(status: row.status, reason: name))
        }
    }

    /// The reasons no validation produces still come out of a scripted fault with the
    /// table's status.
    @Test(arguments: APNsErrorReason.allCases.filter { $0.fakeSource == .scriptedFaultOnly })
    func scriptedFaultAnswers(_ expected: APNsErrorReason) {
        let bed = APNsTestbed()
        bed.fake.addFault(.next(1, .reason(APNsReason(expected))))
        let response = bed.fake.handle(APNsTestbed.push())
        #expect(response.status.code == expected.status)
        #expect(reason(of: response) == expected.rawValue)
    }
}
