@testable import PushCrypto
import Foundation
import Testing
import PushTestSupport

/// Key agreement and signatures checked against a real peer, the `openssl` command line
/// tool: each side derives the secret from its private key and the other's public key, and
/// the two must be equal. Skipped when openssl is not on PATH.
@Suite(.enabled(if: ExternalPeer.find("openssl") != nil, "openssl is not installed (apt-get install -y openssl)"))
struct TLSCryptoOpenSSLTests {
    typealias Scratch = ScratchFolder

    /// Runs openssl; throws with its output unless it exits 0.
    @discardableResult
    static func openssl(_ arguments: String...) throws -> String { try OpenSSLTool.run(arguments) }

    /// openssl makes a key (`genpkey` with `algorithm`) in peer.pem and derives the secret
    /// with our public key, ours.pub.der (SPKI).
    /// - Returns: the peer's raw public key (the last `publicKeyLength` bytes of its SPKI,
    ///   also written to peer.pub.der) and openssl's 32-byte secret.
    static func opensslPeer(_ scratch: Scratch, _ algorithm: [String], publicKeyLength: Int) throws -> (publicKey: [UInt8], secret: [UInt8]) {
        let openssl = ExternalPeer.find("openssl") ?? "openssl"
        for arguments in [
            ["genpkey"] + algorithm + ["-out", scratch.path("peer.pem")],
            ["pkey", "-in", scratch.path("peer.pem"), "-pubout", "-outform", "DER", "-out", scratch.path("peer.pub.der")],
            ["pkeyutl", "-derive", "-inkey", scratch.path("peer.pem"), "-peerkey", scratch.path("ours.pub.der"),
             "-peerform", "DER", "-out", scratch.path("secret.bin")],
        ] {
            let result = try ExternalPeer.run(openssl, arguments, timeout: 60)
            #expect(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.output)")
        }
        let secret = try scratch.read("secret.bin")
        #expect(secret.count == 32)
        return (Array(try scratch.read("peer.pub.der").suffix(publicKeyLength)), secret)
    }

    /// id-X25519, 1.3.101.110 (RFC 8410).
    static let x25519OID: [UInt8] = [0x2b, 0x65, 0x6e]

    @Test func x25519AgreesWithOpenSSL() throws {
        let scratch = try Scratch()
        let ours = secureRandomBytes(32)
        // RFC 8410 PKCS#8: the private key is an OCTET STRING inside the privateKey OCTET STRING.
        try scratch.write("ours.der", DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0]),
            DERWriter.sequence(DERWriter.element(DERTag.objectIdentifier, Self.x25519OID)),
            DERWriter.element(DERTag.octetString, DERWriter.element(DERTag.octetString, ours))))
        try Self.openssl("pkey", "-inform", "DER", "-in", scratch.path("ours.der"), "-pubout", "-outform", "DER", "-out", scratch.path("ours.pub.der"))
        // The SPKI ends with the 32-byte public key: openssl derived the same one we do.
        let ourPublic = X25519.publicKey(privateKey: ours)
        #expect(Array(try scratch.read("ours.pub.der").suffix(32)) == ourPublic)

        let (peerPublic, theirs) = try Self.opensslPeer(scratch, ["-algorithm", "X25519"], publicKeyLength: 32)
        #expect(X25519.sharedSecret(privateKey: ours, peerPublicKey: peerPublic) == theirs)
    }

    @Test func p256AgreesWithOpenSSLAndItVerifiesOurSignature() throws {
        let scratch = try Scratch()
        let ours = P256KeyPair.generate()
        try scratch.write("ours.der", ECPrivateKeyDER.pkcs8(scalar: ours.privateKey, publicKeyX963: ours.publicKeyX963))
        try scratch.write("ours.pub.der", DERWriter.p256SubjectPublicKeyInfo(ours.publicKeyX963))
        let (peerPublic, theirs) = try Self.opensslPeer(scratch, ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
                                                        publicKeyLength: 65)
        #expect(ours.sharedSecret(peerPublicKeyX963: peerPublic) == theirs)
        // And the other direction: openssl with our private key, the peer's public key.
        try Self.openssl("pkeyutl", "-derive", "-inkey", scratch.path("ours.der"), "-keyform", "DER",
                         "-peerkey", scratch.path("peer.pub.der"), "-peerform", "DER", "-out", scratch.path("secret2.bin"))
        #expect(try scratch.read("secret2.bin") == theirs)

        let message = Array("CertificateVerify content".utf8)
        try scratch.write("message", message)
        try scratch.write("signature.der", ours.signatureDER(for: message))
        let verdict = try Self.openssl("dgst", "-sha256", "-verify", scratch.path("ours.pub.der"), "-keyform", "DER",
                                       "-signature", scratch.path("signature.der"), scratch.path("message"))
        #expect(verdict.contains("Verified OK"))
    }
}
