import Foundation
import Testing
@testable import FakeAPNs

/// Inputs found in review that used to trap; each must now get an answer.
@Suite struct ReviewRegressionTests {
    typealias T = APNsTestbed

    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "9223372036854775000"])
    func unregisterAtAnExtremeTimeDoesNotTrap(_ at: String) {
        let bed = T()
        let answer = AdminRoutesTests.call(bed.fake, "POST", "/apns/tokens/unregister", #"{"token":"\#(T.token)","at":\#(at)}"#)
        #expect(answer.status.code == 204)
        #expect(bed.fake.handle(T.push()).status.code == 410)
    }
}
