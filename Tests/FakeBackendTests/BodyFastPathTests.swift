import Contracts
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeBackend
import PushTestSupport

/// The handler's body check with and without the fast path, over the fixtures and variants
/// of them: the same violations and the same fields either way. (The fast accept itself is
/// held to the general path over every one-byte mutation in `PlainInputAcceptorTests`.)
@Suite struct BodyFastPathTests {
    let validator = RequestValidator(contracts: .v1)

    /// `Fixtures/{valid,invalid}/<folder>/*.json`: real bodies, valid and invalid.
    static func fixtures(_ folder: String) -> [[UInt8]] {
        let root = URL(fileURLWithPath: packageRoot)
        return ["valid", "invalid"].flatMap { kind -> [[UInt8]] in
            let directory = root.appendingPathComponent("Fixtures/\(kind)/\(folder)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().filter { $0.hasSuffix(".json") }.compactMap {
                FileManager.default.contents(atPath: directory.appendingPathComponent($0).path).map { Array($0) }
            }
        }
    }

    /// Each body, every prefix of each, and each with one letter's case flipped (a key or a
    /// value that no longer matches).
    static func variants(of bodies: [[UInt8]]) -> [[UInt8]] {
        var result = bodies
        for body in bodies {
            result += body.indices.map { Array(body[..<$0]) }
            for index in body.indices where body[index] | 0x20 >= 0x61 && body[index] | 0x20 <= 0x7A {
                var flipped = body
                flipped[index] ^= 0x20
                result.append(flipped)
            }
        }
        return result
    }

    static let registrations = [Requests.registration(), Requests.registration(environment: "sandbox", appVersion: "10.20.30"),
                                Array(" {\"appVersion\" : \"1.0.0\",\n\"platform\":\"ios\",\t\"publicKey\":\"\(Requests.publicKey)\",\"environment\":\"production\"} ".utf8)]
        + fixtures("devices")

    static let openedBodies = [Array(#"{ "action" : "seeOffer" }"#.utf8)] + fixtures("opens")

    func expectSameAnswer<Fields: Equatable>(_ fast: (Fields?, [Violation]), _ general: (Fields?, [Violation]), _ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        #expect(fast.1 == general.1, "violations differ for \(text)")
        #expect(fast.0 == general.0, "fields differ for \(text)")
    }

    @Test func registrationBodiesGetTheSameAnswerOnEitherPath() {
        #expect(Self.fixtures("devices").count >= 10)
        var accepted = 0
        for body in Self.variants(of: Self.registrations) {
            let fast = validator.validate(registrationBody: body)
            expectSameAnswer(fast, validator.validate(registrationBody: body, fastPath: false), body)
            if fast.1.isEmpty { accepted += 1 }
        }
        // The three above and the two valid fixtures at least.
        #expect(accepted >= 5)
    }

    @Test func openedBodiesGetTheSameAnswerOnEitherPath() {
        #expect(Self.fixtures("opens").count >= 8)
        for body in Self.variants(of: Self.openedBodies) {
            expectSameAnswer(validator.validate(openedBody: body), validator.validate(openedBody: body, fastPath: false), body)
        }
    }

    @Test func aValidRegistrationIsStoredWithItsFields() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        let body = Array(#"{"publicKey":"\#(Requests.publicKey)","appVersion":"7.0.1","environment":"sandbox","platform":"ios"}"#.utf8)
        #expect(backend.handle(Requests.put(Requests.token, body: body)).status == .noContent)
        let device = backend.devices[Requests.token]
        #expect(device?.environment == "sandbox")
        #expect(device?.appVersion == "7.0.1")
        #expect(device?.publicKey == Requests.publicKey)
        #expect(device?.platform == "ios")
    }

    /// Counts are kept by endpoint index on the hot path: each endpoint's own, none for 404s.
    @Test func requestsAreCountedPerEndpoint() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        _ = backend.handle(Requests.put(Requests.token))
        for _ in 0..<2 { _ = backend.handle(Requests.delete(Requests.token)) }
        for _ in 0..<3 { _ = backend.handle(Requests.opened("n1")) }
        _ = backend.handle(HTTPRequest(method: "GET", path: "/nowhere"))
        #expect(backend.state.requestCounts == [.putDevice: 1, .deleteDevice: 2, .opened: 3])
        backend.reset()
        #expect(backend.state.requestCounts.isEmpty)
        _ = backend.handle(Requests.opened("n2"))
        #expect(backend.state.requestCounts == [.opened: 1])
    }
}
