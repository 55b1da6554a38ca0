@testable import Contracts
import Testing

/// The hand-written matchers must accept exactly what their emitted patterns accept.
@Suite struct StringFormatTests {
    static let formats: [StringFormat] = [
        .hexBytes, .identifier, .semver, .base64, .base64P256PublicKey, .httpsURL, .bundleID,
        .orderRoute, .offerRoute, .orderThread,
    ]

    static let samples: [String] = [
        "", "a", "ab", "AB", "aB0f", "abc", "zz", "0", "00", "e3b53618dc34756b",
        "91", "a_b-C9", "a b", "91/opened", "é", "x~y",
        "4.2.0", "0.0.0", "10.20.30", "4.2", "4.2.0.1", "04.2.0", "4.02.0", "4.2.0-beta", "v4.2.0", "4..0", ".4.2", "4.2.",
        "c2VjcmV0", "c2VjcmV0MQ==", "c2VjcmV0MTI=", "c2VjcmV0M===", "c2Vj=mV0", "c2VjcmV0M", "ab+/", "ab-_",
        "BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y=",
        "BPhVRjEcONmeSRz8X2ugVwdMr7BxVOrc/d454co1VWFd43zfdtEnBusGPMoQR/dSNJdNhvBy6dT3g2ZhN+qoJNE=",
        "BZz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y=",
        "BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Z=",
        "A3z6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lN",
        "https://img.example.com/rider/12.jpg", "https://img.example.com", "https://img.example.com:8443/a?b=c#d",
        "http://img.example.com/x", "https://", "https:///x", "https://a b/c", "https://host/a b", "HTTPS://host/",
        "https://host:/x", "https://host:123456/x", "https://host?x", "https://ho_st/x", "ftp://host/x",
        "com.example.shop", "com", "com.", ".com", "com..example", "com.example-shop.app", "com.example shop",
        "home", "orders/8F3K", "orders/", "orders/8F3K/x", "offers/FREEDEL18", "offers/a b", "order-8F3K", "order-",
        "orders/" + String(repeating: "x", count: 64), "orders/" + String(repeating: "x", count: 65),
        String(repeating: "ab", count: 100),
    ]

    @Test(arguments: formats)
    func matcherAgreesWithItsPattern(_ format: StringFormat) throws {
        let regex = try Regex(format.pattern)
        for sample in StringFormatTests.samples {
            let byRegex = (try? regex.wholeMatch(in: sample)) != nil
            #expect(format.matches(sample) == byRegex, "\(format.name) on \"\(sample)\": matcher \(format.matches(sample)), pattern \(byRegex)")
        }
    }

    @Test func problemsSayWhatIsWrong() {
        #expect(StringFormat.hexBytes.problem(with: "abc")?.contains("odd") == true)
        #expect(StringFormat.hexBytes.problem(with: "abzz")?.contains("'z' at character 3") == true)
        #expect(StringFormat.httpsURL.problem(with: "http://x/y") == "an http:// URL")
        #expect(StringFormat.base64P256PublicKey.problem(with: "c2VjcmV0")?.contains("88") == true)
        #expect(StringFormat.semver.problem(with: "4.2") == "\"4.2\"")
        #expect(StringFormat.identifier.problem(with: "91") == nil)
    }
}
