@testable import PushCrypto
import Testing
import PushTestSupport

/// RFC 5869 Appendix A.1–A.3, the HMAC-SHA-256 cases: PRK from Extract and OKM from Expand,
/// byte for byte. A.2 needs three HMAC blocks, so it catches a counter or chaining mistake
/// in Expand; A.3's empty salt checks the "HashLen zeros" default.
@Suite struct TLSCryptoHKDFTests {
    struct Vector: Sendable, CustomStringConvertible {
        var number: Int
        var inputKeyingMaterial: [UInt8]
        var salt: [UInt8]
        var info: [UInt8]
        var length: Int
        var pseudoRandomKey: String
        var outputKeyingMaterial: String
        var description: String { "RFC 5869 test case \(number)" }
    }

    static let vectors: [Vector] = [
        Vector(number: 1, inputKeyingMaterial: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c),
               info: Array(0xf0...0xf9), length: 42,
               pseudoRandomKey: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
               outputKeyingMaterial: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Vector(number: 2, inputKeyingMaterial: Array(0x00...0x4f), salt: Array(0x60...0xaf),
               info: Array(0xb0...0xff), length: 82,
               pseudoRandomKey: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
               outputKeyingMaterial: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                   + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                   + "cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        Vector(number: 3, inputKeyingMaterial: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], length: 42,
               pseudoRandomKey: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
               outputKeyingMaterial: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: vectors)
    func rfc5869(vector: Vector) {
        let prk = HKDF.extract(salt: vector.salt, inputKeyingMaterial: vector.inputKeyingMaterial)
        #expect(CryptoHex.string(prk) == vector.pseudoRandomKey)
        let okm = HKDF.expand(pseudoRandomKey: prk, info: vector.info, length: vector.length)
        #expect(CryptoHex.string(okm) == vector.outputKeyingMaterial)
    }

    /// A shorter output is a prefix of a longer one, and lengths outside 0…8160 are clamped
    /// rather than trapping.
    @Test func lengthsArePrefixesAndClamped() {
        let prk = HKDF.extract(salt: [], inputKeyingMaterial: [1, 2, 3])
        let long = HKDF.expand(pseudoRandomKey: prk, info: [9], length: 100)
        #expect(HKDF.expand(pseudoRandomKey: prk, info: [9], length: 33) == Array(long.prefix(33)))
        #expect(HKDF.expand(pseudoRandomKey: prk, info: [9], length: 0).isEmpty)
        #expect(HKDF.expand(pseudoRandomKey: prk, info: [9], length: -1).isEmpty)
        #expect(HKDF.expand(pseudoRandomKey: prk, info: [9], length: 1_000_000).count == HKDF.maximumLength)
    }
}
