@testable import PushCrypto
import Testing
import PushTestSupport

@Suite struct CryptoSHA256Tests {
    /// FIPS 180-2 / NIST CAVP examples.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, digest: String) {
        #expect(CryptoHex.string(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(CryptoHex.string(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Feeding the same bytes in uneven pieces (across block and padding boundaries) gives
    /// the one-shot digest.
    @Test(arguments: [1, 3, 55, 56, 63, 64, 65, 127])
    func incrementalMatchesOneShot(chunk: Int) {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for length in [0, 55, 56, 63, 64, 119, 120, 300] {
            var hasher = SHA256.Hasher()
            var rest = message[0..<length]
            while !rest.isEmpty {
                hasher.update(rest.prefix(chunk))
                rest = rest.dropFirst(chunk)
            }
            #expect(hasher.finalize() == SHA256.hash(Array(message[0..<length])), "length \(length)")
        }
    }

    /// Every message length from 0 to 199 octets (one and two padding blocks, every boundary
    /// of the final block): the SHA-256 of their 200 digests in a row, as Python's hashlib
    /// gives it (`hashlib.sha256(b"".join(hashlib.sha256(bytes((i * 7 + n) & 0xff for i in
    /// range(n))).digest() for n in range(200))).hexdigest()`).
    @Test func everyLengthUpToThreeBlocksMatchesHashlib() {
        var digests: [UInt8] = []
        for length in 0..<200 {
            digests += SHA256.hash((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) })
        }
        #expect(CryptoHex.string(SHA256.hash(digests)) == "8c7c9ff69da76fc28823a1cb97268672663e628e1ea955868b16db46bab0545d")
    }

    @Test func genericCollectionOverload() {
        let text = "abc"
        #expect(SHA256.hash(text.utf8) == SHA256.hash([0x61, 0x62, 0x63]))
    }
}
