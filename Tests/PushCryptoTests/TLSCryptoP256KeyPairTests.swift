@testable import PushCrypto
import Testing
import PushTestSupport

/// P-256 ECDH against RFC 5903 §8.1 and the key pair's ECDSA signatures against the ECDSA
/// verifier the provider tokens use.
@Suite struct TLSCryptoP256KeyPairTests {
    // RFC 5903 §8.1 (ECDH on the 256-bit random ECP group).
    static let initiatorPrivate = CryptoHex.bytes("C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433")
    static let initiatorPublic = CryptoHex.bytes("04"
        + "DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180"
        + "5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3")
    static let responderPrivate = CryptoHex.bytes("C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53")
    static let responderPublic = CryptoHex.bytes("04"
        + "D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63"
        + "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB")
    static let sharedX = "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"

    @Test func rfc5903Section8Point1() throws {
        let initiator = try #require(P256KeyPair(privateKey: Self.initiatorPrivate))
        let responder = try #require(P256KeyPair(privateKey: Self.responderPrivate))
        #expect(initiator.publicKeyX963 == Self.initiatorPublic)
        #expect(responder.publicKeyX963 == Self.responderPublic)
        #expect(initiator.privateKey == Self.initiatorPrivate)
        #expect(initiator.sharedSecret(peerPublicKeyX963: Self.responderPublic).map { CryptoHex.string($0) } == Self.sharedX)
        #expect(responder.sharedSecret(peerPublicKeyX963: Self.initiatorPublic).map { CryptoHex.string($0) } == Self.sharedX)
    }

    @Test func generatedPairsAgree() {
        let a = P256KeyPair.generate()
        let b = P256KeyPair.generate()
        #expect(a.publicKeyX963.count == 65)
        #expect(a.privateKey.count == 32)
        let ab = a.sharedSecret(peerPublicKeyX963: b.publicKeyX963)
        #expect(ab?.count == 32)
        #expect(ab == b.sharedSecret(peerPublicKeyX963: a.publicKeyX963))
        #expect(P256KeyPair(privateKey: a.privateKey)?.publicKeyX963 == a.publicKeyX963)
    }

    /// Wrong length, compressed or hybrid prefix, a coordinate ≥ p, a point off the curve.
    @Test func badPeerKeysAreRefused() {
        let ours = P256KeyPair.generate()
        var offCurve = Self.responderPublic
        offCurve[64] ^= 0x01
        var compressed = Self.responderPublic
        compressed[0] = 0x02
        let beyondP = [0x04] + [UInt8](repeating: 0xff, count: 64)
        for peer in [[], Array(Self.responderPublic.dropLast()), Self.responderPublic + [0], offCurve, compressed, beyondP] {
            #expect(ours.sharedSecret(peerPublicKeyX963: peer) == nil, "\(peer.count) bytes")
        }
    }

    /// 0, n, 2^256 − 1 and the wrong lengths are not private keys; 1 and n − 1 are.
    @Test func privateKeyRange() {
        let order = CryptoHex.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        var orderMinusOne = order
        orderMinusOne[31] -= 1
        #expect(P256KeyPair(privateKey: [UInt8](repeating: 0, count: 32)) == nil)
        #expect(P256KeyPair(privateKey: order) == nil)
        #expect(P256KeyPair(privateKey: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(P256KeyPair(privateKey: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(P256KeyPair(privateKey: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(P256KeyPair(privateKey: [UInt8](repeating: 0, count: 31) + [1]) != nil)
        #expect(P256KeyPair(privateKey: orderMinusOne) != nil)
    }

    /// The DER signature parses as SEQUENCE { INTEGER r, INTEGER s } and verifies with the
    /// existing ECDSA verifier; a different message does not.
    @Test func signatureVerifies() throws {
        let pair = P256KeyPair.generate()
        let message = Array("TLS 1.3, server CertificateVerify".utf8)
        let der = pair.signatureDER(for: message)
        var outer = DERReader(der)
        var sequence = DERReader(try outer.read(DERTag.sequence, "signature"))
        try outer.expectEnd("signature")
        let r = try #require(U256(bigEndian: try sequence.read(DERTag.integer, "r").drop { $0 == 0 }))
        let s = try #require(U256(bigEndian: try sequence.read(DERTag.integer, "s").drop { $0 == 0 }))
        try sequence.expectEnd("s")
        #expect(ECDSA.verify(r: r, s: s, digest: SHA256.hash(message), publicKey: pair.publicPoint))
        #expect(!ECDSA.verify(r: r, s: s, digest: SHA256.hash(message + [0]), publicKey: pair.publicPoint))
    }
}
