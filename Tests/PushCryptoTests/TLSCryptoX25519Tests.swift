@testable import PushCrypto
import Testing
import PushTestSupport

/// RFC 7748 §5.2 (the two single-shot vectors, and the iterated function after 1 and 1,000
/// rounds; the 1,000,000-round case would take minutes) and the §6.1 Diffie-Hellman example.
@Suite struct TLSCryptoX25519Tests {
    static let basePoint: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)

    @Test(arguments: [
        ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
        // The u-coordinate's top bit is set: it must be masked, not rejected or reduced.
        ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
    ])
    func rfc7748Section5Point2(scalar: String, u: String, output: String) {
        #expect(CryptoHex.string(X25519.scalarMultiply(CryptoHex.bytes(scalar), CryptoHex.bytes(u))) == output)
        #expect(X25519.sharedSecret(privateKey: CryptoHex.bytes(scalar), peerPublicKey: CryptoHex.bytes(u)).map { CryptoHex.string($0) } == output)
    }

    /// k = u = 9, then (k, u) ← (X25519(k, u), k).
    @Test func rfc7748IteratedOneAndOneThousandTimes() {
        var k = Self.basePoint
        var u = Self.basePoint
        for round in 1...1000 {
            (k, u) = (X25519.scalarMultiply(k, u), k)
            if round == 1 {
                #expect(CryptoHex.string(k) == "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
            }
        }
        #expect(CryptoHex.string(k) == "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    }

    @Test func rfc7748Section6Point1DiffieHellman() {
        let alicePrivate = CryptoHex.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bobPrivate = CryptoHex.bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        let alicePublic = X25519.publicKey(privateKey: alicePrivate)
        let bobPublic = X25519.publicKey(privateKey: bobPrivate)
        #expect(CryptoHex.string(alicePublic) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(CryptoHex.string(bobPublic) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        #expect(X25519.sharedSecret(privateKey: alicePrivate, peerPublicKey: bobPublic).map { CryptoHex.string($0) } == shared)
        #expect(X25519.sharedSecret(privateKey: bobPrivate, peerPublicKey: alicePublic).map { CryptoHex.string($0) } == shared)
    }

    /// A peer key of the wrong length, or a low-order point (u = 0, u = 1) that forces an
    /// all-zero secret, gives nil.
    @Test func badPeerKeysAreRefused() {
        let ours = secureRandomBytes(32)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: []) == nil)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: [UInt8](repeating: 9, count: 31)) == nil)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: [UInt8](repeating: 9, count: 33)) == nil)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: [UInt8](repeating: 0, count: 32)) == nil)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: [1] + [UInt8](repeating: 0, count: 31)) == nil)
    }

    /// Random pairs agree, and the public key is 32 bytes.
    @Test func generatedPairsAgree() {
        for _ in 0..<5 {
            let a = secureRandomBytes(32)
            let b = secureRandomBytes(32)
            let aPublic = X25519.publicKey(privateKey: a)
            #expect(aPublic.count == 32)
            let ab = X25519.sharedSecret(privateKey: a, peerPublicKey: X25519.publicKey(privateKey: b))
            #expect(ab != nil)
            #expect(ab == X25519.sharedSecret(privateKey: b, peerPublicKey: aPublic))
        }
    }
}
