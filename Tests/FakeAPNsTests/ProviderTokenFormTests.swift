@testable import PushCrypto
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// `iat` in the forms real senders send to APNs, and `iat` ahead of the clock.
@Suite struct ProviderTokenFormTests {
    /// A push whose token's claims carry `iat` exactly as `literal` spells it.
    static func push(iat literal: String) -> HTTPRequest {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(APNsTestbed.keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(APNsTestbed.teamID)","iat":\#(literal)}"#.utf8))
        let token = header + "." + claims + "." + Base64URL.encode(APNsTestbed.secret)
        return APNsTestbed.push(headers: [("authorization", "bearer " + token)])
    }

    static let seconds = APNsTestbed.start / 1000

    @Test(arguments: [
        ("\(seconds).432378", "iat \(seconds).432378 read as \(seconds)"),
        ("\"\(seconds)\"", "iat \"\(seconds)\" read as \(seconds)"),
    ])
    func nonIntegerIssuedAtIsAcceptedAndJournaled(_ literal: String, _ detail: String) {
        let bed = APNsTestbed()
        let response = bed.fake.handle(Self.push(iat: literal))
        #expect(response.status.code == 200)
        #expect(bed.fake.journal.last?.detail == detail)
    }

    @Test func anIntegerIssuedAtLeavesNoDetail() {
        let bed = APNsTestbed()
        #expect(bed.fake.handle(Self.push(iat: "\(Self.seconds)")).status.code == 200)
        #expect(bed.fake.journal.last?.detail == nil)
    }

    @Test func aReadingIsKeptWhenTheTokenIsRefused() {
        let bed = APNsTestbed()
        let response = bed.fake.handle(Self.push(iat: "\(Self.seconds - 3601).5"))
        #expect(reason(of: response) == "ExpiredProviderToken")
        #expect(bed.fake.journal.last?.detail?.hasPrefix("iat \(Self.seconds - 3601).5 read as \(Self.seconds - 3601); iat is 3601 s ago") == true)
    }

    /// Apple: `iat` "must be no more than one hour from the current time".
    @Test func issuedAtMoreThanAnHourAheadIsInvalid() {
        let bed = APNsTestbed()
        let response = bed.fake.handle(Self.push(iat: "\(Self.seconds + 7200)"))
        #expect(response.status.code == 403)
        #expect(reason(of: response) == "InvalidProviderToken")
        #expect(bed.fake.journal.last?.detail == "iat is 7200 s ahead of the clock; it must be no more than an hour from the current time")
    }

    @Test func issuedAtWithinAnHourAheadIsAccepted() {
        let bed = APNsTestbed()
        #expect(bed.fake.handle(Self.push(iat: "\(Self.seconds + 3600)")).status.code == 200)
    }
}
