import Foundation
@testable import PushCrypto
import Testing
import PushTestSupport

/// AES-256 (and AES-128) in CBC mode against NIST SP 800-38A Appendix F.2 and FIPS 197
/// Appendix C, and PKCS#7 padding against `openssl enc` both ways.
@Suite struct CryptoAESCBCTests {
    static let iv = "000102030405060708090a0b0c0d0e0f"
    static let plaintext = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
        + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
    static let key256 = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
    static let ciphertext256 = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
        + "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"
    static let key128 = "2b7e151628aed2a6abf7158809cf4f3c"
    static let ciphertext128 = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
        + "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"

    /// F.2.5 CBC-AES256.Encrypt and F.2.1 CBC-AES128.Encrypt, four blocks, no padding.
    @Test(arguments: [(key256, ciphertext256), (key128, ciphertext128)])
    func nistEncrypt(key: String, ciphertext: String) throws {
        let sealed = try #require(AESCBC.encrypt(CryptoHex.bytes(Self.plaintext), key: CryptoHex.bytes(key),
                                                 iv: CryptoHex.bytes(Self.iv), padding: false))
        #expect(CryptoHex.string(sealed) == ciphertext)
    }

    /// F.2.6 CBC-AES256.Decrypt and F.2.2 CBC-AES128.Decrypt.
    @Test(arguments: [(key256, ciphertext256), (key128, ciphertext128)])
    func nistDecrypt(key: String, ciphertext: String) throws {
        let opened = try #require(AESCBC.decrypt(CryptoHex.bytes(ciphertext), key: CryptoHex.bytes(key),
                                                 iv: CryptoHex.bytes(Self.iv), padding: false))
        #expect(CryptoHex.string(opened) == Self.plaintext)
    }

    /// FIPS 197 C.3 (AES-256, one block) both ways: the 14-round key schedule and the inverse cipher.
    @Test func fips197AES256Block() throws {
        let cipher = try #require(AES(key: Array(0..<32)))
        #expect(cipher.rounds == 14)
        let block = CryptoHex.bytes("00112233445566778899aabbccddeeff")
        #expect(CryptoHex.string(cipher.encrypt(block: block)) == "8ea2b7ca516745bfeafc49904b496089")
        #expect(cipher.decrypt(block: CryptoHex.bytes("8ea2b7ca516745bfeafc49904b496089")[...]) == block)
    }

    /// Other key and IV lengths, ragged ciphertexts and bad padding give nil, never a trap.
    @Test func badInputIsRefused() throws {
        let key = CryptoHex.bytes(Self.key256), iv = CryptoHex.bytes(Self.iv)
        #expect(AES(key: [UInt8](repeating: 0, count: 24)) == nil)
        #expect(AESCBC.encrypt([1, 2, 3], key: Array(key.prefix(31)), iv: iv) == nil)
        #expect(AESCBC.encrypt([1, 2, 3], key: key, iv: Array(iv.prefix(15))) == nil)
        #expect(AESCBC.encrypt([1, 2, 3], key: key, iv: iv, padding: false) == nil)
        #expect(AESCBC.decrypt([UInt8](repeating: 0, count: 17), key: key, iv: iv) == nil)
        #expect(AESCBC.decrypt([], key: key, iv: iv) == nil)
        // A block whose last byte decrypts to 0x00, then to 0x11 (> 16): both bad padding.
        for last: UInt8 in [0x00, 0x11, 0x02] {
            var plain = [UInt8](repeating: 0x05, count: 16)
            plain[15] = last
            let sealed = try #require(AESCBC.encrypt(plain, key: key, iv: iv, padding: false))
            #expect(AESCBC.decrypt(sealed, key: key, iv: iv) == nil, "last byte \(last)")
        }
    }

    /// Padded encryption equals `openssl enc -aes-256-cbc` for lengths around block edges,
    /// and decrypting openssl's output gives the plaintext back.
    @Test func paddingMatchesOpenSSL() throws {
        guard let openssl = ExternalPeer.find("openssl") else {
            print("skipped: openssl is not installed (scripts/install-peers.sh)")
            return
        }
        let key = CryptoHex.bytes(Self.key256), iv = CryptoHex.bytes(Self.iv)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cbc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for length in [0, 1, 15, 16, 17, 100] {
            let plain = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let input = folder.appendingPathComponent("in-\(length)"), output = folder.appendingPathComponent("out-\(length)")
            try Data(plain).write(to: input)
            let result = try ExternalPeer.run(openssl, ["enc", "-aes-256-cbc", "-K", Self.key256, "-iv", Self.iv,
                                                        "-in", input.path, "-out", output.path], timeout: 30)
            #expect(result.status == 0, "\(result.output)")
            let theirs = try [UInt8](Data(contentsOf: output))
            #expect(theirs.count == (length / 16 + 1) * 16)
            #expect(AESCBC.encrypt(plain, key: key, iv: iv) == theirs, "length \(length)")
            #expect(AESCBC.decrypt(theirs, key: key, iv: iv) == plain, "length \(length)")
        }
    }
}
