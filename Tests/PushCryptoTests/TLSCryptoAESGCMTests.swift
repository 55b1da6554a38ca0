@testable import PushCrypto
import Testing
import PushTestSupport

/// AES-128-GCM against the test cases of the GCM specification (McGrew and Viega, "The
/// Galois/Counter Mode of Operation", Appendix B, Test Cases 1–6: the AES-128 ones), sealing
/// and opening byte for byte, plus tampering, which must give `nil` and never trap.
@Suite struct TLSCryptoAESGCMTests {
    struct Vector: Sendable, CustomStringConvertible {
        var number: Int
        var key: String
        var plaintext: String
        var additionalData: String
        var nonce: String
        var ciphertext: String
        var tag: String
        var description: String { "GCM test case \(number)" }
    }

    static let key3 = "feffe9928665731c6d6a8f9467308308"
    static let plaintext64 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
        + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let plaintext60 = String(plaintext64.prefix(120))
    static let additionalData = "feedfacedeadbeeffeedfacedeadbeefabaddad2"

    static let vectors: [Vector] = [
        Vector(number: 1, key: "00000000000000000000000000000000", plaintext: "", additionalData: "",
               nonce: "000000000000000000000000", ciphertext: "", tag: "58e2fccefa7e3061367f1d57a4e7455a"),
        Vector(number: 2, key: "00000000000000000000000000000000", plaintext: "00000000000000000000000000000000",
               additionalData: "", nonce: "000000000000000000000000",
               ciphertext: "0388dace60b6a392f328c2b971b2fe78", tag: "ab6e47d42cec13bdf53a67b21257bddf"),
        Vector(number: 3, key: key3, plaintext: plaintext64, additionalData: "", nonce: "cafebabefacedbaddecaf888",
               ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                   + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
               tag: "4d5c2af327cd64a62cf35abd2ba6fab4"),
        Vector(number: 4, key: key3, plaintext: plaintext60, additionalData: additionalData, nonce: "cafebabefacedbaddecaf888",
               ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                   + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
               tag: "5bc94fbc3221a5db94fae95ae7121a47"),
        // 8- and 60-byte IVs: J0 comes from GHASH over the IV instead of IV ‖ 1.
        Vector(number: 5, key: key3, plaintext: plaintext60, additionalData: additionalData, nonce: "cafebabefacedbad",
               ciphertext: "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
                   + "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
               tag: "3612d2e79e3b0785561be14aaca2fccb"),
        Vector(number: 6, key: key3, plaintext: plaintext60, additionalData: additionalData,
               nonce: "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
                   + "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
               ciphertext: "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
                   + "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
               tag: "619cc5aefffe0bfa462af43c1699d050"),
    ]

    @Test(arguments: vectors)
    func sealMatchesSpecification(vector: Vector) throws {
        let aead = try #require(AES128GCM(key: CryptoHex.bytes(vector.key)))
        let sealed = aead.seal(CryptoHex.bytes(vector.plaintext), nonce: CryptoHex.bytes(vector.nonce),
                               additionalData: CryptoHex.bytes(vector.additionalData))
        #expect(CryptoHex.string(sealed) == vector.ciphertext + vector.tag)
    }

    @Test(arguments: vectors)
    func openMatchesSpecification(vector: Vector) throws {
        let aead = try #require(AES128GCM(key: CryptoHex.bytes(vector.key)))
        let opened = aead.open(CryptoHex.bytes(vector.ciphertext + vector.tag)[...], nonce: CryptoHex.bytes(vector.nonce),
                               additionalData: CryptoHex.bytes(vector.additionalData))
        #expect(opened.map { CryptoHex.string($0) } == vector.plaintext)
    }

    /// Flipping one bit anywhere — ciphertext, tag, additional data, nonce — makes `open`
    /// return nil (test case 4, which has all four).
    @Test func tamperingIsDetected() throws {
        let vector = Self.vectors[3]
        let aead = try #require(AES128GCM(key: CryptoHex.bytes(vector.key)))
        let sealed = CryptoHex.bytes(vector.ciphertext + vector.tag)
        let nonce = CryptoHex.bytes(vector.nonce)
        let additionalData = CryptoHex.bytes(vector.additionalData)
        #expect(aead.open(sealed[...], nonce: nonce, additionalData: additionalData) != nil)
        for index in [0, 17, 59, 60, 75] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(aead.open(altered[...], nonce: nonce, additionalData: additionalData) == nil, "byte \(index)")
        }
        var alteredData = additionalData
        alteredData[19] ^= 0x80
        #expect(aead.open(sealed[...], nonce: nonce, additionalData: alteredData) == nil)
        var alteredNonce = nonce
        alteredNonce[11] ^= 0x01
        #expect(aead.open(sealed[...], nonce: alteredNonce, additionalData: additionalData) == nil)
        #expect(aead.open(sealed.dropLast()[...], nonce: nonce, additionalData: additionalData) == nil)
    }

    /// Inputs shorter than a tag, and slices that do not start at index 0, are handled.
    @Test func shortInputsAndSlices() throws {
        let aead = try #require(AES128GCM(key: [UInt8](repeating: 7, count: 16)))
        for count in 0..<16 {
            #expect(aead.open([UInt8](repeating: 0, count: count)[...], nonce: [UInt8](repeating: 0, count: 12), additionalData: []) == nil)
        }
        let nonce = [UInt8](repeating: 1, count: 12)
        let sealed = aead.seal(Array("record".utf8), nonce: nonce, additionalData: [23, 3, 3])
        let framed = [0xaa, 0xbb] + sealed + [0xcc]
        #expect(aead.open(framed[2..<(2 + sealed.count)], nonce: nonce, additionalData: [23, 3, 3]) == Array("record".utf8))
    }

    @Test func keyMustBe16Bytes() {
        #expect(AES128GCM(key: []) == nil)
        #expect(AES128GCM(key: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(AES128GCM(key: [UInt8](repeating: 0, count: 32)) == nil)
        #expect(AES128GCM(key: [UInt8](repeating: 0, count: 16)) != nil)
    }

    /// Every length from 0 to 100 round-trips (the partial-block paths of both the counter
    /// mode and GHASH), and the ciphertext is as long as the plaintext.
    @Test func everyLengthRoundTrips() throws {
        let aead = try #require(AES128GCM(key: Array(0..<16)))
        let nonce = Array(100..<112) as [UInt8]
        for length in 0...100 {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let sealed = aead.seal(plaintext, nonce: nonce, additionalData: [UInt8](repeating: 5, count: length % 20))
            #expect(sealed.count == length + 16)
            #expect(aead.open(sealed[...], nonce: nonce, additionalData: [UInt8](repeating: 5, count: length % 20)) == plaintext)
        }
    }
}

extension TLSCryptoAESGCMTests {
    /// Sealing in place after other bytes gives the same ciphertext and tag as `seal` and
    /// leaves the bytes before alone; opening in place restores the plaintext, and a bad tag
    /// cuts the buffer back to where the record started.
    @Test func inPlaceFormsMatchTheCopyingOnes() throws {
        let aead = try #require(AES128GCM(key: Array(0..<16)))
        let nonce = Array(100..<112) as [UInt8]
        for length in [0, 1, 15, 16, 17, 300, 1000] {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let header: [UInt8] = [23, 3, 3, UInt8(length >> 8), UInt8(length & 0xff)]
            var buffer = header + plaintext
            aead.seal(inPlace: &buffer, from: 5, nonce: nonce, additionalData: header)
            #expect(buffer == header + aead.seal(plaintext, nonce: nonce, additionalData: header), "length \(length)")
            var opened = buffer
            #expect(aead.open(inPlace: &opened, from: 5, nonce: nonce, additionalData: header))
            #expect(opened == header + plaintext)
            var tampered = buffer
            tampered[tampered.count - 1] ^= 1
            #expect(!aead.open(inPlace: &tampered, from: 5, nonce: nonce, additionalData: header))
            #expect(tampered == header)
        }
        var short: [UInt8] = [1, 2, 3]
        #expect(!aead.open(inPlace: &short, from: 1, nonce: nonce, additionalData: []))
        #expect(short == [1])
    }
}
