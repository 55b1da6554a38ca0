@testable import PushCore
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// One FakeAPNs serves both environments and decides a request's as APNs does: by the host
/// the sender addressed, else by the configured default.
@Suite struct EnvironmentTests {
    typealias T = APNsTestbed

    static func push(authority: String, token: String = T.token) -> HTTPRequest {
        var request = T.push(token: token)
        request.authority = authority
        return request
    }

    @Test(arguments: [
        ("api.push.apple.com", APNsEnvironment.production),
        ("api.push.apple.com:443", .production),
        ("API.Push.Apple.com.", .production),
        ("api.sandbox.push.apple.com:2197", .sandbox),
        ("api.development.push.apple.com", .sandbox),
    ])
    func applesHostsNameTheirEnvironment(_ host: String, _ environment: APNsEnvironment) {
        #expect(APNsEnvironment(host: host) == environment)
    }

    @Test(arguments: ["127.0.0.1:2197", "localhost", "[::1]:443", "push.apple.com", "api.push.apple.com.evil", ""])
    func otherHostsNameNone(_ host: String) {
        #expect(APNsEnvironment(host: host) == nil)
    }

    /// The byte path (ASCII hosts) answers what the `String` path answers, on hosts built
    /// from the pieces that matter: Apple's names in any case, ports, dots, brackets, colons.
    @Test func theByteAndStringReadingsOfAHostAgree() {
        var generator = SplitMix64(seed: 3)
        let pieces = ["api.push.apple.com", "API.SANDBOX.push.apple.com", "api.development.push.apple.com", ":", "443",
                      ".", "]", "[::1]", "x", "apple", "é", "\u{212A}", ":44a", String(repeating: "a", count: 30)]
        for _ in 0..<5_000 {
            let host = (0..<Int(generator.next() % 4)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(APNsEnvironment(host: host) == APNsEnvironment.environment(ofHost: host), "\(host)")
        }
    }

    @Test func theHostDecidesTheEnvironmentOfAToken() {
        let bed = T()
        let production = APNsReasonTable.otherToken
        bed.fake.register(token: production, topic: T.topic, environment: .production)

        let accepted = bed.fake.handle(Self.push(authority: "api.push.apple.com:443", token: production))
        #expect(accepted.status.code == 200)
        #expect(accepted.headers["apns-unique-id"] == nil, "apns-unique-id is sent only in development")
        #expect(bed.fake.journal.last?.environment == .production)

        let refused = bed.fake.handle(Self.push(authority: "127.0.0.1:2197", token: production))
        #expect(reason(of: refused) == "BadDeviceToken")
        #expect(bed.fake.journal.last?.detail == "the token is registered for production; this request is for development (the fake's default environment)")

        let sandboxToken = bed.fake.handle(Self.push(authority: "api.push.apple.com"))
        #expect(reason(of: sandboxToken) == "BadDeviceToken")
        #expect(bed.fake.journal.last?.detail == "the token is registered for development; this request is for production (addressed to api.push.apple.com)")

        let development = bed.fake.handle(Self.push(authority: "api.development.push.apple.com"))
        #expect(development.status.code == 200)
        #expect(development.headers["apns-unique-id"] != nil)
    }

    @Test func theConfiguredDefaultAppliesToOtherHosts() {
        let bed = T { $0.environment = .production }
        bed.fake.register(token: APNsReasonTable.otherToken, topic: T.topic, environment: .production)
        #expect(bed.fake.handle(Self.push(authority: "127.0.0.1", token: APNsReasonTable.otherToken)).status.code == 200)
        #expect(bed.fake.handle(Self.push(authority: "api.sandbox.push.apple.com", token: APNsReasonTable.otherToken)).status.code == 400)
    }

    @Test func aKeyForOneEnvironmentIsRefusedInTheOther() {
        let bed = T()
        bed.fake.registerSigningKey(StubKey(secret: T.secret), keyID: T.keyID, teamID: T.teamID, environment: .production)
        bed.fake.register(token: T.token, topic: T.topic, environment: .production)
        #expect(bed.fake.handle(Self.push(authority: "api.push.apple.com")).status.code == 200)
        var other = Self.push(authority: "api.sandbox.push.apple.com")
        other.connectionID = 2
        let refused = bed.fake.handle(other)
        #expect(refused.status.code == 403)
        #expect(bed.fake.journal.last?.detail == "key \(T.keyID) is for production; this request is for development")
    }

    @Test func anUnknownTokenSaysSo() {
        let bed = T()
        _ = bed.fake.handle(Self.push(authority: "127.0.0.1", token: APNsReasonTable.otherToken))
        #expect(bed.fake.journal.last?.detail == "the token is not registered")
    }
}
