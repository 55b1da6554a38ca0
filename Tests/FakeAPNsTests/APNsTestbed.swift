@testable import FakeSupport
@testable import PushCrypto
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// A stand-in signing key: a signature is valid when it equals the key's secret.
/// (The real ES256 keys come from the crypto helper; this keeps the handler's tests
/// independent of it.)
struct StubKey: ProviderTokenVerificationKey {
    var secret: [UInt8]
    func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool { raw64 == secret }
}

/// A fake with a fake clock, one registered key and one registered device.
struct APNsTestbed: Sendable {
    static let start: Int64 = 1_700_000_000_000
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let topic = "com.example.app"
    static let token = String(repeating: "ab", count: 32)
    /// 64 bytes, the size of an ES256 signature (the decoder insists on it).
    static let secret: [UInt8] = Array(repeating: 0x5A, count: 64)
    static let payload = Array(#"{"aps":{"alert":{"title":"On the way","body":"Your order is on the way"}},"notificationId":"91"}"#.utf8)

    let clock: PushClock
    let fake: FakeAPNs

    init(_ configure: (inout FakeAPNs.Configuration) -> Void = { _ in },
         inspector: @escaping PayloadInspector = PayloadInspectors.default) {
        let clock = PushClock(stoppedAtMilliseconds: Self.start)
        self.init(clock: clock, fake: FakeAPNs(configuration: Self.configuration(clock, configure), payloadInspector: inspector))
    }

    private init(clock: PushClock, fake: FakeAPNs) {
        self.clock = clock
        self.fake = fake
        fake.registerSigningKey(StubKey(secret: Self.secret), keyID: Self.keyID, teamID: Self.teamID)
        fake.register(token: Self.token, topic: Self.topic)
    }

    /// The same testbed, listening on loopback.
    static func started(_ configure: (inout FakeAPNs.Configuration) -> Void = { _ in },
                        inspector: @escaping PayloadInspector = PayloadInspectors.default) async throws -> APNsTestbed {
        let clock = PushClock(stoppedAtMilliseconds: Self.start)
        let fake = try await FakeAPNs.start(configuration: configuration(clock, configure), payloadInspector: inspector)
        return APNsTestbed(clock: clock, fake: fake)
    }

    private static func configuration(_ clock: PushClock, _ configure: (inout FakeAPNs.Configuration) -> Void) -> FakeAPNs.Configuration {
        var configuration = FakeAPNs.Configuration()
        configuration.clock = clock
        configure(&configuration)
        return configuration
    }

    /// A provider token in JWT form, signed with the stub's notion of a signature.
    static func providerToken(keyID: String = keyID, teamID: String = teamID, issuedAt: Int64 = start / 1000,
                              signature: [UInt8] = secret, algorithm: String = "ES256") -> String {
        let header = Base64URL.encode(Array(#"{"alg":"\#(algorithm)","kid":"\#(keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        return header + "." + claims + "." + Base64URL.encode(signature)
    }

    /// A valid push, with headers to change.
    static func push(token: String = token, method: String = "POST", headers: [(String, String?)] = [],
                     body: [UInt8] = payload, connection: UInt64 = 1) -> HTTPRequest {
        var fields = HTTPFields()
        fields.append(name: "authorization", value: "bearer " + providerToken())
        fields.append(name: "apns-topic", value: topic)
        fields.append(name: "apns-push-type", value: "alert")
        fields.append(name: "apns-priority", value: "10")
        for (name, value) in headers {
            if let value { fields[name] = value } else { fields[name] = nil }
        }
        return HTTPRequest(method: method, path: "/3/device/" + token, authority: "127.0.0.1",
                           headers: fields, body: body, version: .http2, connectionID: connection)
    }
}

/// The reason of a JSON error body, or nil.
func reason(of response: HTTPResponse) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { return nil }
    return object["reason"] as? String
}
