@testable import PushCrypto
import Foundation
import Testing
import PushTestSupport

/// RSASSA-PSS (SHA-256, MGF1-SHA256, 32-byte salt) verification: Wycheproof's vectors, keys
/// that must be refused, and agreement with `openssl` on random messages.
@Suite struct CryptoRSAPSSTests {
    @Test(arguments: RSAPSSWycheproofVectors.groups.map(\.keySize))
    func wycheproofVectors(keySize: Int) throws {
        let group = try #require(RSAPSSWycheproofVectors.groups.first { $0.keySize == keySize })
        let key = try RSAPublicKey(subjectPublicKeyInfo: hexBytes(group.subjectPublicKeyInfo)[...])
        #expect(key.modulusBits == keySize)
        var outcomes: [Bool: Int] = [:]
        for line in group.cases.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 4, "bad vector line \(line)")
            let message = fields[2] == "-" ? [] : hexBytes(fields[2])
            let signature = fields[3] == "-" ? [] : hexBytes(fields[3])
            let valid = fields[1] == "valid"
            #expect(key.verifyPSSSHA256(signature: signature, message: message) == valid, "tcId \(fields[0]) (\(fields[1]))")
            outcomes[valid, default: 0] += 1
        }
        // Both kinds are exercised: 63 valid, 45 invalid per key size.
        #expect(outcomes[true] == 63 && outcomes[false] == 45, "\(outcomes)")
    }

    @Test func montgomeryProductsAreReducedAndPowersMatchPlainArithmetic() throws {
        // One limb, n a little above 2^63, so unreduced results in [n, 2^64) are common.
        let n: UInt64 = (1 << 63) + 29
        let modulus = try #require(RSAModulus(limbs: [n]))
        func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 { n.dividingFullWidth(a.multipliedFullWidth(by: b)).remainder }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = UInt64.random(in: 0..<n, using: &generator)
            let b = UInt64.random(in: 0..<n, using: &generator)
            #expect(modulus.montgomeryProduct([a], [b])[0] < n)
            let e = UInt64.random(in: 1...UInt64.max, using: &generator)
            var expected: UInt64 = 1
            for bit in stride(from: 63, through: 0, by: -1) {
                expected = multiply(expected, expected)
                if e >> UInt64(bit) & 1 == 1 { expected = multiply(expected, a) }
            }
            #expect(modulus.power([a], exponent: e) == [expected], "\(a)^\(e) mod n")
        }
    }

    @Test func keysOutOfBoundsAreRefused() throws {
        let odd4097 = [UInt8(0x01)] + [UInt8](repeating: 0xff, count: 512)
        let even = [UInt8](repeating: 0xff, count: 255) + [0xfe]
        let good = [UInt8](repeating: 0xff, count: 256)
        let cases: [(modulus: [UInt8], exponent: [UInt8], why: String)] = [
            (odd4097, [1, 0, 1], "4097 bits"),
            ([UInt8](repeating: 0xff, count: 127), [1, 0, 1], "1016 bits"),
            (even, [1, 0, 1], "even"),
            (good, [1], "e = 1"),
            (good, [1, 0, 0], "e even"),
            (good, [], "e empty"),
            (good, [1] + [UInt8](repeating: 0, count: 8), "e of 65 bits"),
        ]
        for (modulus, exponent, why) in cases {
            #expect(throws: CryptoEncodingError.invalidRSAKey, "\(why)") {
                try RSAPublicKey(modulus: modulus[...], exponent: exponent[...])
            }
        }
        let key = try RSAPublicKey(modulus: ([0, 0] + good)[...], exponent: [0, 1, 0, 1][...])
        #expect(key.modulusBits == 2048 && key.exponent == 65537)
    }

    @Test func malformedSubjectPublicKeyInfoThrowsAndNeverTraps() throws {
        let group = try #require(RSAPSSWycheproofVectors.groups.first)
        let spki = hexBytes(group.subjectPublicKeyInfo)
        for length in 0..<spki.count {
            #expect(throws: CryptoEncodingError.self) { try RSAPublicKey(subjectPublicKeyInfo: spki.prefix(length)) }
        }
        #expect(throws: CryptoEncodingError.self) { try RSAPublicKey(subjectPublicKeyInfo: (spki + [0])[...]) }
        // A P-256 key is not an RSA key.
        let ec = DERWriter.p256SubjectPublicKeyInfo(P256KeyPair.generate().publicKeyX963)
        #expect(throws: CryptoEncodingError.invalidRSAKey) { try RSAPublicKey(subjectPublicKeyInfo: ec[...]) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var mutated = spki
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[index] = UInt8.random(in: 0...255, using: &generator)
            }
            // Either an error or a key; a key verifies garbage as false.
            if let key = try? RSAPublicKey(subjectPublicKeyInfo: mutated[...]) {
                #expect(!key.verifyPSSSHA256(signature: [UInt8](repeating: 1, count: key.modulusByteCount), message: [1]))
            }
        }
    }

    @Test func signaturesOfTheWrongLengthOrNotBelowTheModulusAreFalse() throws {
        let group = try #require(RSAPSSWycheproofVectors.groups.first)
        let key = try RSAPublicKey(subjectPublicKeyInfo: hexBytes(group.subjectPublicKeyInfo)[...])
        for count in [0, 1, 255, 257, 512] {
            #expect(!key.verifyPSSSHA256(signature: [UInt8](repeating: 0x01, count: count), message: []))
        }
        #expect(!key.verifyPSSSHA256(signature: [UInt8](repeating: 0xff, count: 256), message: []))
        #expect(!key.verifyPSSSHA256(signature: [UInt8](repeating: 0x00, count: 256), message: []))
    }
}

/// RSA-PSS signatures made by openssl (`dgst -sha256 -sigopt rsa_padding_mode:pss
/// -sigopt rsa_pss_saltlen:32`) with a fresh RSA 2048 key: all 100 verify, and each with
/// one bit flipped (in the signature, then in the message) does not.
@Suite(.enabled(if: ExternalPeer.find("openssl") != nil, "openssl is not installed (apt-get install -y openssl)"))
struct CryptoRSAPSSOpenSSLTests {
    @Test func agreesWithOpenSSLOnAHundredRandomMessages() throws {
        let scratch = try ScratchFolder()
        try TLSCryptoOpenSSLTests.openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", scratch.path("key.pem"))
        try TLSCryptoOpenSSLTests.openssl("pkey", "-in", scratch.path("key.pem"), "-pubout", "-outform", "DER", "-out", scratch.path("pub.der"))
        let key = try RSAPublicKey(subjectPublicKeyInfo: try scratch.read("pub.der")[...])
        #expect(key.modulusBits == 2048)
        var generator = SystemRandomNumberGenerator()
        for index in 0..<100 {
            let message = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try scratch.write("m\(index)", message)
            try TLSCryptoOpenSSLTests.openssl("dgst", "-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32",
                                              "-sign", scratch.path("key.pem"), "-out", scratch.path("s\(index)"), scratch.path("m\(index)"))
            let signature = try scratch.read("s\(index)")
            #expect(key.verifyPSSSHA256(signature: signature, message: message), "message \(index)")
            var flipped = signature
            let bit = Int.random(in: 0..<(signature.count * 8), using: &generator)
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(!key.verifyPSSSHA256(signature: flipped, message: message), "message \(index), signature bit \(bit)")
            var otherMessage = message.isEmpty ? [0] : message
            let messageBit = Int.random(in: 0..<(otherMessage.count * 8), using: &generator)
            otherMessage[messageBit / 8] ^= 1 << UInt8(messageBit % 8)
            #expect(!key.verifyPSSSHA256(signature: signature, message: otherMessage), "message \(index), message bit \(messageBit)")
        }
    }
}
