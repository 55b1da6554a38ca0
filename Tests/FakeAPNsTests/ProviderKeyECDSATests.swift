@testable import PushCrypto
import Contracts
import FakeAPNs
import Testing
import PushTestSupport

/// FakeAPNs' provider keys (`APNsSigningKey`, `APNsPublicKey`) sign and verify ES256 as Apple's do:
/// RFC 6979 A.2.5 (P-256, SHA-256) plus C2SP's rejection-sampling vector for the same key,
/// scalar multiplication vectors and the verifier's rejections.
@Suite struct ProviderKeyECDSATests {
    static let privateKey = CryptoHex.bytes("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let publicKeyX963 = CryptoHex.bytes(
        "04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
            + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
    /// The group order n.
    static let order = CryptoHex.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    struct Vector: Sendable, CustomStringConvertible {
        var message: String
        var k: String
        var r: String
        var s: String
        var description: String { "message \"\(message)\"" }
        var signature: [UInt8] { CryptoHex.bytes(r + s) }
    }

    static let vectors = [
        Vector(message: "sample",
               k: "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
               r: "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
               s: "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        Vector(message: "test",
               k: "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
               r: "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
               s: "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
        // C2SP CCTV "RFC 6979 rejection sampling vector": the first HMAC-DRBG candidate is
        // ≥ n and must be skipped (step h.3), a 2⁻³² event with P-256.
        Vector(message: "wv[vnX",
               k: "2AE40DF9D9DAB61D688DE3DCB9867A98ECC70DD4D6C0F6C228B6E4E0B18B29BC",
               r: "EFD9073B652E76DA1B5A019C0E4A2E3FA529B035A6ABB91EF67F0ED7A1F21234",
               s: "3DB4706C9D9F4A4FE13BB5E08EF0FAB53A57DBAB2061C83A35FA411C68D2BA33"),
    ]

    static func key() throws -> APNsSigningKey {
        try APNsSigningKey(rawRepresentation: privateKey)
    }

    @Test func publicKeyDerivesFromPrivateKey() throws {
        let key = try Self.key()
        #expect(key.publicKey.x963Representation == Self.publicKeyX963)
        #expect(try APNsPublicKey(x963Representation: Self.publicKeyX963) == key.publicKey)
        #expect(key.rawRepresentation == Self.privateKey)
    }

    @Test(arguments: vectors)
    func nonceIsRFC6979(vector: Vector) {
        var nonces = RFC6979Nonce(privateKey: Self.privateKey, digest: SHA256.hash(Array(vector.message.utf8)))
        #expect(CryptoHex.string(nonces.next()) == vector.k.lowercased())
    }

    @Test(arguments: vectors)
    func signatureReproducesRFC6979(vector: Vector) throws {
        let signature = try Self.key().signature(for: Array(vector.message.utf8))
        #expect(CryptoHex.string(signature) == (vector.r + vector.s).lowercased())
    }

    @Test(arguments: vectors)
    func rfc6979SignatureVerifies(vector: Vector) throws {
        let publicKey = try APNsPublicKey(x963Representation: Self.publicKeyX963)
        #expect(publicKey.isValidSignature(vector.signature, for: Array(vector.message.utf8)))
    }

    // MARK: Scalar multiplication

    /// k·G for small k and for n − 1 (which is −G: same x, y negated).
    @Test(arguments: [
        ("01", "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
         "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"),
        ("02", "7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978",
         "07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1"),
        ("03", "5ECBE4D1A6330A44C8F7EF951D4BF165E6C6B721EFADA985FB41661BC6E7FD6C",
         "8734640C4998FF7E374B06CE1A64A2ECD82AB036384FB83D9A79B127A27D5032"),
        ("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632550",
         "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
         "B01CBD1C01E58065711814B583F061E9D431CCA994CEA1313449BF97C840AE0A"),
    ])
    func scalarMultiplesOfG(k: String, x: String, y: String) throws {
        let scalar = CryptoHex.bytes(String(repeating: "0", count: 64 - k.count) + k)
        let key = try APNsSigningKey(rawRepresentation: scalar)
        #expect(CryptoHex.string(key.publicKey.x963Representation) == ("04" + x + y).lowercased())
    }

    @Test(arguments: [
        [UInt8](repeating: 0, count: 32),
        order,
        [UInt8](repeating: 0xff, count: 32),
        [UInt8](repeating: 1, count: 31),
        [UInt8](repeating: 1, count: 33),
    ])
    func invalidPrivateScalarsAreRejected(raw: [UInt8]) {
        #expect(throws: APNsKeyError.invalidPrivateKey) { try APNsSigningKey(rawRepresentation: raw) }
    }

    // MARK: Round trips

    @Test func generatedKeysSignAndVerify() {
        for index in 0..<4 {
            let key = APNsSigningKey.generate()
            let message = Array("provider token \(index)".utf8)
            let signature = key.signature(for: message)
            #expect(signature.count == 64)
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(key.signature(for: message) == signature, "RFC 6979 signatures are deterministic")
            #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
        }
    }

    // MARK: Rejections

    static let sample = vectors[0]
    static let sampleMessage = Array("sample".utf8)

    static func verifySample(_ signature: [UInt8], message: [UInt8] = sampleMessage) throws -> Bool {
        try APNsPublicKey(x963Representation: publicKeyX963).isValidSignature(signature, for: message)
    }

    @Test(arguments: [0, 17, 31, 32, 45, 63])
    func tamperedSignatureByteIsRejected(index: Int) throws {
        var signature = Self.sample.signature
        signature[index] ^= 0x01
        #expect(try !Self.verifySample(signature))
    }

    @Test func tamperedMessageIsRejected() throws {
        #expect(try !Self.verifySample(Self.sample.signature, message: Array("samplf".utf8)))
        #expect(try !Self.verifySample(Self.sample.signature, message: Array("sample ".utf8)))
        #expect(try !Self.verifySample(Self.sample.signature, message: []))
    }

    @Test func wrongKeyIsRejected() throws {
        let other = APNsSigningKey.generate().publicKey
        #expect(!other.isValidSignature(Self.sample.signature, for: Self.sampleMessage))
    }

    static let zero = [UInt8](repeating: 0, count: 32)

    /// r or s outside 1..<n, each of which a sloppy verifier might reduce mod n and accept.
    @Test(arguments: [
        ("r = 0", zero + CryptoHex.bytes(sample.s)),
        ("s = 0", CryptoHex.bytes(sample.r) + zero),
        ("r = n", order + CryptoHex.bytes(sample.s)),
        ("s = n", CryptoHex.bytes(sample.r) + order),
        ("s = 2^256 − 1", CryptoHex.bytes(sample.r) + [UInt8](repeating: 0xff, count: 32)),
        ("r = s = 0", zero + zero),
    ])
    func outOfRangeValuesAreRejected(name: String, signature: [UInt8]) throws {
        #expect(try !Self.verifySample(signature), "\(name)")
    }

    /// s + n is congruent to a valid s but is ≥ n, so it must be rejected. Real signatures
    /// almost never have s small enough for s + n to fit in 256 bits, so this one was
    /// constructed: nonce k = 0x1d1c0ffee and private key d = (k − e)/r, which makes s = 1.
    @Test func sPlusNIsRejected() throws {
        let key = try APNsSigningKey(rawRepresentation: CryptoHex.bytes(
            "00A691AE761D4004E19ED306501E63FE3CD4B752AA557BD93EB7B04D2CB8F051"))
        let r = CryptoHex.bytes("D52BCF8C37E3C60A361FF6A3499EA313CFFC0430C856DDFE29A1F57109545277")
        let message = Array("a signature with s = 1".utf8)
        let one = [UInt8](repeating: 0, count: 31) + [1]
        #expect(key.publicKey.isValidSignature(r + one, for: message))
        let onePlusN = Self.add(one, Self.order)
        #expect(onePlusN.count == 32)
        #expect(!key.publicKey.isValidSignature(r + onePlusN, for: message))
    }

    /// A signature whose verification lands on the point at infinity must be rejected, not
    /// crash on the affine conversion: with r = 1 and d = −e mod n, u1·G + u2·Q = (e + d)/s·G = O
    /// for every s.
    @Test func pointAtInfinityIsRejected() throws {
        let key = try APNsSigningKey(rawRepresentation: CryptoHex.bytes(
            "5A516B99C74CD6E08CCD09832F78D769D9D6C49418EA8F3B09D737D993F8B157"))
        let one = [UInt8](repeating: 0, count: 31) + [1]
        let message = Array("u1 G + u2 Q is infinity".utf8)
        for s in [one, [UInt8](repeating: 0, count: 31) + [7], CryptoHex.bytes(Self.sample.s)] {
            #expect(!key.publicKey.isValidSignature(one + s, for: message))
        }
    }

    /// Documented choice: high-S is accepted. RFC 6979's "sample" signature already has
    /// s > n/2; its low-S twin (r, n − s) verifies too. JWS ES256 (RFC 7518 §3.4) and APNs
    /// do not demand low-S, so rejecting it would refuse tokens Apple accepts.
    @Test func highAndLowSAreBothAccepted() throws {
        let s = CryptoHex.bytes(Self.sample.s)
        let halfOrder = CryptoHex.bytes("7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A8")
        #expect(s.lexicographicallyPrecedes(halfOrder) == false, "the RFC vector is high-S")
        let lowS = Self.subtract(Self.order, s)
        #expect(lowS.lexicographicallyPrecedes(halfOrder))
        #expect(try Self.verifySample(Self.sample.signature))
        #expect(try Self.verifySample(CryptoHex.bytes(Self.sample.r) + lowS))
    }

    @Test func garbageSignaturesAreRejected() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let garbage = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try !Self.verifySample(garbage))
        }
        #expect(try !Self.verifySample([UInt8](repeating: 0xff, count: 64)))
    }

    @Test(arguments: [0, 1, 63, 65, 72])
    func wrongLengthSignaturesAreRejected(length: Int) throws {
        let signature = Array((Self.sample.signature + Self.sample.signature).prefix(length))
        #expect(try !Self.verifySample(signature))
    }

    @Test func offCurvePublicKeyIsRejected() {
        var offCurve = Self.publicKeyX963
        offCurve[64] ^= 0x01
        #expect(throws: APNsKeyError.invalidPublicKey) { try APNsPublicKey(x963Representation: offCurve) }
        var xTooLarge = Self.publicKeyX963
        for index in 1...32 { xTooLarge[index] = 0xff }
        #expect(throws: APNsKeyError.invalidPublicKey) { try APNsPublicKey(x963Representation: xTooLarge) }
        // Infinity has only the one-byte encoding 00; the all-zero point is not on the curve.
        #expect(throws: APNsKeyError.invalidPublicKey) { try APNsPublicKey(x963Representation: [0x00]) }
        #expect(throws: APNsKeyError.invalidPublicKey) {
            try APNsPublicKey(x963Representation: [0x04] + [UInt8](repeating: 0, count: 64))
        }
        var wrongPrefix = Self.publicKeyX963
        wrongPrefix[0] = 0x06
        #expect(throws: APNsKeyError.invalidPublicKey) { try APNsPublicKey(x963Representation: wrongPrefix) }
        #expect(throws: APNsKeyError.invalidPublicKey) {
            try APNsPublicKey(x963Representation: Array(Self.publicKeyX963.prefix(33)))
        }
    }

    // MARK: Big-endian helpers for the vectors

    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var carry = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let sum = Int(a[index]) + Int(b[index]) + carry
            result[index] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        return carry == 0 ? result : []
    }

    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let difference = Int(a[index]) - Int(b[index]) - borrow
            result[index] = UInt8((difference + 256) & 0xff)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
