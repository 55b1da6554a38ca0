@testable import PushCrypto
import PushTestSupport
import Testing

/// PushCrypto's ECDSA P-256/SHA-256 on its own (FakeAPNsTests' ProviderKeyECDSATests checks
/// the provider key types built on it): RFC 6979 A.2.5's deterministic signatures, and the
/// verifier's answer to each of them and to a changed message.
@Suite struct CryptoECDSATests {
    static let privateKey = U256(bigEndian: CryptoHex.bytes("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"))

    /// (message, r, s) from RFC 6979 A.2.5, SHA-256.
    static let vectors: [(String, String, String)] = [
        ("sample", "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
         "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        ("test", "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
         "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ]

    @Test func signaturesReproduceRFC6979AndVerify() throws {
        let d = try #require(Self.privateKey)
        let publicKey = try #require(P256.multiplyGenerator(d).affine)
        for (message, r, s) in Self.vectors {
            let digest = SHA256.hash(Array(message.utf8))
            let signature = ECDSA.sign(digest: digest, privateKey: d)
            #expect(CryptoHex.string(signature.r.bigEndianBytes) == r.lowercased(), "r for \"\(message)\"")
            #expect(CryptoHex.string(signature.s.bigEndianBytes) == s.lowercased(), "s for \"\(message)\"")
            #expect(ECDSA.verify(r: signature.r, s: signature.s, digest: digest, publicKey: publicKey))
            let other = SHA256.hash(Array((message + "!").utf8))
            #expect(!ECDSA.verify(r: signature.r, s: signature.s, digest: other, publicKey: publicKey))
        }
    }
}
