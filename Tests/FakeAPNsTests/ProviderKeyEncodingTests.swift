@testable import PushCrypto
import Contracts
import FakeAPNs
import Testing
import PushTestSupport

/// PEM/DER key files. The fixtures were made with OpenSSL 3.0:
/// `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256` (PKCS#8, the `.p8`
/// layout), `openssl ec` (SEC1), `openssl pkey -pubout` (SPKI), `openssl ec -no_public |
/// openssl pkcs8 -topk8 -nocrypt` (PKCS#8 without the public key), `openssl ecparam -genkey`
/// (SEC1 after an EC PARAMETERS block).
@Suite struct ProviderKeyEncodingTests {
    static let pkcs8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgtTMcRz+7nDeiRsCM
        yPUPT7SaYQhb0B570On+PwH/RxGhRANCAAQAJw8Lid5raLMQwB3qX5njnI0w8G9S
        h0F/01kZYVW3ICkxC27FDLutJZHCWdXlt0Xv8gKaF1KqlueLdLf6Vx7i
        -----END PRIVATE KEY-----

        """
    static let sec1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEILUzHEc/u5w3okbAjMj1D0+0mmEIW9Aee9Dp/j8B/0cRoAoGCCqGSM49
        AwEHoUQDQgAEACcPC4nea2izEMAd6l+Z45yNMPBvUodBf9NZGWFVtyApMQtuxQy7
        rSWRwlnV5bdF7/ICmhdSqpbni3S3+lce4g==
        -----END EC PRIVATE KEY-----
        """
    static let spki = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEACcPC4nea2izEMAd6l+Z45yNMPBv
        UodBf9NZGWFVtyApMQtuxQy7rSWRwlnV5bdF7/ICmhdSqpbni3S3+lce4g==
        -----END PUBLIC KEY-----

        """
    static let pkcs8WithoutPublicKey = """
        -----BEGIN PRIVATE KEY-----
        MEECAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEJzAlAgEBBCC1MxxHP7ucN6JGwIzI
        9Q9PtJphCFvQHnvQ6f4/Af9HEQ==
        -----END PRIVATE KEY-----
        """
    static let sec1WithParameters = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIGy32ydp12apLmwaJyBKd2nRujDhZ3TSCs2ChPOJoR4VoAoGCCqGSM49
        AwEHoUQDQgAEoZ9peJQZ6YEWwq2oldGnVspOcatWB0UpJ/9FwKgskrOP4b9tRxvc
        jR4fJ74wvUOZKr4C1WgA2yDDVEZz/eKT+g==
        -----END EC PRIVATE KEY-----
        """
    static let rawPrivateKey = CryptoHex.bytes("b5331c473fbb9c37a246c08cc8f50f4fb49a61085bd01e7bd0e9fe3f01ff4711")
    /// Note the leading zero byte of X: encoders must keep coordinates at 32 bytes.
    static let publicKeyX963 = CryptoHex.bytes(
        "0400270f0b89de6b68b310c01dea5f99e39c8d30f06f5287417fd359196155b720"
            + "29310b6ec50cbbad2591c259d5e5b745eff2029a1752aa96e78b74b7fa571ee2")
    /// `printf 'signed by openssl' | openssl dgst -sha256 -sign p8.pem` (DER).
    static let opensslSignatureDER = CryptoHex.bytes(
        "3046022100cdd8f7d7cd714d362ca9303f598e08b1d733e022c67661176fb3aa98c6cf92e4"
            + "022100fb2c0814ee047b2d3dc33029715ff988db994f155217dcf84fd9555e6de90248")

    @Test func readsPKCS8AsApplesP8() throws {
        let key = try APNsSigningKey(pemRepresentation: Self.pkcs8)
        #expect(key.rawRepresentation == Self.rawPrivateKey)
        #expect(key.publicKey.x963Representation == Self.publicKeyX963)
    }

    @Test func descriptionsNeverShowThePrivateKey() throws {
        let key = try APNsSigningKey(rawRepresentation: Self.rawPrivateKey)
        #expect(!String(describing: key).contains("b5331c47"))
        #expect(String(describing: key).contains("0400270f0b89de6b68"))
    }

    @Test func readsSEC1AndPKCS8WithoutPublicKey() throws {
        #expect(try APNsSigningKey(pemRepresentation: Self.sec1).rawRepresentation == Self.rawPrivateKey)
        let derived = try APNsSigningKey(pemRepresentation: Self.pkcs8WithoutPublicKey)
        #expect(derived.publicKey.x963Representation == Self.publicKeyX963)
        let withParameters = try APNsSigningKey(pemRepresentation: Self.sec1WithParameters)
        #expect(withParameters.publicKey.x963Representation.first == 0x04)
    }

    @Test func readsSPKIAndDerivesPublicKeyFromPrivatePEM() throws {
        let fromSPKI = try APNsPublicKey(pemRepresentation: Self.spki)
        #expect(fromSPKI.x963Representation == Self.publicKeyX963)
        #expect(try APNsPublicKey(pemRepresentation: Self.pkcs8) == fromSPKI)
        #expect(try APNsPublicKey(pemRepresentation: Self.sec1) == fromSPKI)
    }

    /// Our encoders write byte for byte what OpenSSL wrote.
    @Test func writesTheSameBytesAsOpenSSL() throws {
        let key = try APNsSigningKey(rawRepresentation: Self.rawPrivateKey)
        #expect(key.pemRepresentation == Self.pkcs8)
        #expect(key.publicKey.pemRepresentation == Self.spki)
        #expect(try APNsSigningKey(pemRepresentation: key.pemRepresentation).rawRepresentation == Self.rawPrivateKey)
    }

    @Test func generatedKeysRoundTripThroughPEM() throws {
        let key = APNsSigningKey.generate()
        let reread = try APNsSigningKey(pemRepresentation: key.pemRepresentation)
        #expect(reread.rawRepresentation == key.rawRepresentation)
        #expect(try APNsPublicKey(pemRepresentation: key.publicKey.pemRepresentation) == key.publicKey)
        #expect(try APNsPublicKey(derRepresentation: key.publicKey.derRepresentation) == key.publicKey)
        #expect(try APNsSigningKey(derRepresentation: key.derRepresentation).publicKey == key.publicKey)
    }

    @Test func verifiesASignatureMadeByOpenSSL() throws {
        let raw = try ECDSASignatureDER.rawSignature(fromDER: Self.opensslSignatureDER)
        #expect(raw.count == 64)
        let publicKey = try APNsPublicKey(pemRepresentation: Self.spki)
        #expect(publicKey.isValidSignature(raw, for: Array("signed by openssl".utf8)))
        #expect(!publicKey.isValidSignature(raw, for: Array("signed by openssl!".utf8)))
        #expect(ECDSASignatureDER.derSignature(fromRaw: raw) == Self.opensslSignatureDER)
    }

    // MARK: Rejections

    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDx3q1ftArtyW4Wxs+E
        4OVXAvd1i6EQvgBrvfWkbwrymsTPSZ3OB6Q/m3qwIUxPss+hZANiAATIrUViYURs
        3s1DxRUWoR/RbdTAgT/TO4zs06k6zqA3/vkV+HZvANsoRR1dfzSJPoKwLMXa338c
        5WeZWoU9lNcqX3SqccSu8X2iFEqul3uCL8emPRirICEMzRbIb8ujU9A=
        -----END PRIVATE KEY-----
        """
    static let secp256k1 = """
        -----BEGIN PRIVATE KEY-----
        MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgI21CfjxGr+fZAg7+6+Dt
        XPlen0GSaYKu37HWYhLKPvChRANCAATurJneV2n5zZPYdm8fqBkPxfjl2O5egPcH
        FxVpOFaaglPJSKgzm7H0Fi1BwXc90bk4WyrGZemLNedOhokihCdK
        -----END PRIVATE KEY-----
        """
    static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIIsLcyA59egqz+AW39TlFZbGGDaPJUyYGrAV1KDhVhlH
        -----END PRIVATE KEY-----
        """

    @Test func rejectsOtherCurvesAndAlgorithmsByName() {
        #expect(throws: APNsKeyError.unsupportedCurve) { try APNsSigningKey(pemRepresentation: Self.p384) }
        #expect(throws: APNsKeyError.unsupportedCurve) { try APNsSigningKey(pemRepresentation: Self.secp256k1) }
        #expect(throws: APNsKeyError.unsupportedAlgorithm) { try APNsSigningKey(pemRepresentation: Self.ed25519) }
        do {
            _ = try APNsSigningKey(pemRepresentation: Self.p384)
        } catch {
            #expect(error.description.contains("1.3.132.0.34"), "names the curve found: \(error)")
        }
        do {
            _ = try APNsSigningKey(pemRepresentation: Self.ed25519)
        } catch {
            #expect(error.description.contains("1.3.101.112"), "names the algorithm found: \(error)")
        }
    }

    @Test func rejectsTextThatIsNotAKey() {
        #expect(throws: APNsKeyError.notPEM) { try APNsSigningKey(pemRepresentation: "") }
        #expect(throws: APNsKeyError.notPEM) { try APNsSigningKey(pemRepresentation: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49") }
        #expect(throws: APNsKeyError.notPEM) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nMEE=\n")
        }
        #expect(throws: APNsKeyError.notPEM) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nMEE=\n-----END PUBLIC KEY-----\n")
        }
        #expect(throws: APNsKeyError.invalidBase64) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nM*E!\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: APNsKeyError.unsupportedPEMLabel) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN RSA PRIVATE KEY-----\nMEE=\n-----END RSA PRIVATE KEY-----\n")
        }
        #expect(throws: APNsKeyError.unsupportedPEMLabel) { try APNsSigningKey(pemRepresentation: Self.spki) }
        #expect(throws: APNsKeyError.unsupportedPEMLabel) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMEE=\n-----END ENCRYPTED PRIVATE KEY-----\n")
        }
        #expect(throws: APNsKeyError.unsupportedPEMLabel) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nMEE=\n-----END EC PRIVATE KEY-----\n")
        }
        do {
            _ = try APNsSigningKey(pemRepresentation: Self.spki)
        } catch {
            #expect(error.description.contains("cannot sign"), "says why a public key will not do: \(error)")
        }
        #expect(throws: APNsKeyError.unsupportedPEMLabel) {
            try APNsSigningKey(pemRepresentation: "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n")
        }
    }

    /// Every truncation of a valid key is an error, never a crash.
    @Test func truncatedDERIsAnErrorAtEveryLength() throws {
        let der = try APNsSigningKey(pemRepresentation: Self.pkcs8).derRepresentation
        for length in 0..<der.count {
            #expect(throws: APNsKeyError.self) { try APNsSigningKey(derRepresentation: Array(der.prefix(length))) }
        }
        let spki = try APNsPublicKey(pemRepresentation: Self.spki).derRepresentation
        for length in 0..<spki.count {
            #expect(throws: APNsKeyError.self) { try APNsPublicKey(derRepresentation: Array(spki.prefix(length))) }
        }
        #expect(throws: APNsKeyError.malformedDER) { try APNsSigningKey(derRepresentation: der + [0]) }
    }

    /// Flipping a bit anywhere in a key file's DER gives an error — never a trap, never a
    /// silently different key. (The PKCS#8 version 0 → 1 is the one harmless flip: RFC 5958
    /// calls version 1 "v2" and it is accepted.) One bit per byte, rotating, to keep it quick.
    @Test func bitFlipsAreCaught() throws {
        let der = try APNsSigningKey(pemRepresentation: Self.pkcs8).derRepresentation
        let versionIndex = 5  // 30 81 87 | 02 01 00
        #expect(der[versionIndex - 2] == 0x02 && der[versionIndex] == 0x00, "PKCS#8 version INTEGER")
        for index in der.indices where index != versionIndex {
            var mutated = der
            mutated[index] ^= 1 << UInt8(index % 8)
            #expect((try? APNsSigningKey(derRepresentation: mutated)) == nil, "flip in byte \(index)")
        }
    }

    @Test func storedPublicKeyMustMatch() throws {
        var der = try APNsSigningKey(pemRepresentation: Self.pkcs8).derRepresentation
        // The private scalar's last byte sits just before the [1] public key element.
        guard let marker = der.firstIndex(of: 0xa1) else {
            Issue.record("no [1] element")
            return
        }
        der[marker - 1] ^= 0x01
        #expect(throws: APNsKeyError.publicKeyMismatch) { try APNsSigningKey(derRepresentation: der) }
    }

    @Test func malformedDERSignaturesAreRejected() {
        let valid = Self.opensslSignatureDER
        #expect(throws: APNsKeyError.malformedSignature) { try ECDSASignatureDER.rawSignature(fromDER: []) }
        #expect(throws: APNsKeyError.malformedSignature) { try ECDSASignatureDER.rawSignature(fromDER: Array(valid.dropLast())) }
        #expect(throws: APNsKeyError.malformedSignature) { try ECDSASignatureDER.rawSignature(fromDER: valid + [0]) }
        // A 33-byte magnitude (no leading zero) is too long for P-256.
        let tooLong: [UInt8] = [0x30, 0x26, 0x02, 0x21] + [UInt8](repeating: 0x01, count: 33) + [0x02, 0x01, 0x01]
        #expect(throws: APNsKeyError.malformedSignature) { try ECDSASignatureDER.rawSignature(fromDER: tooLong) }
        let negative: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x80, 0x02, 0x01, 0x01]
        #expect(throws: APNsKeyError.malformedSignature) { try ECDSASignatureDER.rawSignature(fromDER: negative) }
    }
}
