import Foundation
@testable import PushCore
@testable import PushCrypto
import Testing
import PushTestSupport

/// PBKDF2-HMAC-SHA256 against RFC 7914 §11 and `openssl kdf`.
@Suite struct CryptoPBKDF2Tests {
    /// RFC 7914 §11, both PBKDF2-HMAC-SHA256 vectors (c = 1 and c = 80,000; 64 bytes: two blocks).
    /// The 80,000 rounds (~25 s in a debug build) run off the cooperative pool: on two cores,
    /// run inline they held a pool thread long enough to delay other suites' servers' stop.
    @Test func rfc7914() async throws {
        let first = try #require(PBKDF2.deriveKey(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64))
        #expect(CryptoHex.string(first) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        let second = try #require(await offloaded {
            PBKDF2.deriveKey(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, length: 64)
        })
        #expect(CryptoHex.string(second) == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    /// Counts and lengths out of range give nil.
    @Test func limits() {
        #expect(PBKDF2.deriveKey(password: [1], salt: [2], iterations: 0, length: 32) == nil)
        #expect(PBKDF2.deriveKey(password: [1], salt: [2], iterations: PBKDF2.maximumIterations + 1, length: 32) == nil)
        #expect(PBKDF2.deriveKey(password: [1], salt: [2], iterations: 1, length: 0) == nil)
        #expect(PBKDF2.deriveKey(password: [1], salt: [2], iterations: 1, length: 33)?.count == 33)
    }

    /// The 32-byte key PKCS#12 files use (2,048 iterations, 8-byte salt) equals OpenSSL's.
    @Test func matchesOpenSSL() throws {
        guard let openssl = ExternalPeer.find("openssl") else {
            print("skipped: openssl is not installed (scripts/install-peers.sh)")
            return
        }
        let salt = CryptoHex.bytes("a1b2c3d4e5f60718")
        for password in ["", "secret", "pässwörd"] {
            let result = try ExternalPeer.run(openssl, ["kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", "pass:\(password)",
                                                        "-kdfopt", "hexsalt:a1b2c3d4e5f60718", "-kdfopt", "iter:2048", "PBKDF2"], timeout: 30)
            #expect(result.status == 0, "\(result.output)")
            let theirs = result.output.lowercased().filter { $0.isHexDigit }
            let ours = try #require(PBKDF2.deriveKey(password: Array(password.utf8), salt: salt, iterations: 2048, length: 32))
            #expect(CryptoHex.string(ours) == theirs, "password '\(password)'")
        }
    }
}
