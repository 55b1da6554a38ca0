// AES-128-GCM's fast paths (the cached counter-mode rounds, GHASH four blocks per reduction)
// against a plain GCM written here from SP 800-38D: one `AES.encrypt` per counter block and
// a bit-by-bit GF(2^128) multiplication per GHASH block. Seeded random keys, nonces of 12
// and other lengths (so J0, and the counter's last byte, take any value), AAD and plaintext
// lengths around every block and four-block boundary, and records long enough for the
// counter's last byte to wrap (16 KiB: 1,025 blocks).
@testable import PushCrypto
import Testing
import PushCore
import PushTestSupport

@Suite struct CryptoGCMFastPathTests {
    /// x·y in GF(2^128), GCM's bit order (SP 800-38D Algorithm 1), bit by bit.
    static func multiply(_ x: (UInt64, UInt64), _ y: (UInt64, UInt64)) -> (UInt64, UInt64) {
        var z: (UInt64, UInt64) = (0, 0)
        var v = y
        for bit in 0..<128 {
            let set = bit < 64 ? (x.0 >> UInt64(63 - bit)) & 1 : (x.1 >> UInt64(127 - bit)) & 1
            if set == 1 { z = (z.0 ^ v.0, z.1 ^ v.1) }
            let carry = v.1 & 1
            v = ((v.0 >> 1) ^ (carry == 1 ? 0xe100_0000_0000_0000 : 0), (v.1 >> 1) | (v.0 << 63))
        }
        return z
    }

    static func ghash(_ h: (UInt64, UInt64), _ data: [UInt8]) -> (UInt64, UInt64) {
        var y: (UInt64, UInt64) = (0, 0)
        var offset = 0
        while offset < data.count {
            var block = [UInt8](repeating: 0, count: 16)
            for index in offset..<min(offset + 16, data.count) { block[index - offset] = data[index] }
            y = multiply((y.0 ^ word(block, 0), y.1 ^ word(block, 8)), h)
            offset += 16
        }
        return y
    }

    static func word(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (offset..<offset + 8).reduce(0) { $0 << 8 | UInt64(bytes[$1]) }
    }

    static func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) } }

    static func block(_ cipher: AES, _ words: (UInt32, UInt32, UInt32, UInt32)) -> (UInt32, UInt32, UInt32, UInt32) {
        cipher.roundKeys.withUnsafeBufferPointer { keys in
            AES.tables.withUnsafeBufferPointer { tables in
                guard let keys = keys.baseAddress, let tables = tables.baseAddress else { return words }
                return AES.encrypt(words, keys: keys, rounds: cipher.rounds, tables: tables)
            }
        }
    }

    /// SP 800-38D's GCM-AE, plainly: ciphertext ‖ tag.
    static func referenceSeal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws -> [UInt8] {
        let cipher = try #require(AES(key: key))
        let zero = block(cipher, (0, 0, 0, 0))
        let h = (UInt64(zero.0) << 32 | UInt64(zero.1), UInt64(zero.2) << 32 | UInt64(zero.3))
        var j0: (UInt32, UInt32, UInt32, UInt32)
        if nonce.count == 12 {
            let n = nonce + [0, 0, 0, 1]
            j0 = (UInt32(word(n, 0) >> 32), UInt32(truncatingIfNeeded: word(n, 0)), UInt32(word(n, 8) >> 32), 1)
        } else {
            let padded = nonce + [UInt8](repeating: 0, count: (16 - nonce.count % 16) % 16) + bytes(0) + bytes(UInt64(nonce.count * 8))
            let y = ghash(h, padded)
            j0 = (UInt32(y.0 >> 32), UInt32(truncatingIfNeeded: y.0), UInt32(y.1 >> 32), UInt32(truncatingIfNeeded: y.1))
        }
        var ciphertext = plaintext
        var counter = j0
        for start in stride(from: 0, to: plaintext.count, by: 16) {
            counter.3 &+= 1
            let stream = block(cipher, counter)
            let streamBytes = [stream.0, stream.1, stream.2, stream.3].flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> UInt32(24 - 8 * $0)) } }
            for index in start..<min(start + 16, plaintext.count) { ciphertext[index] ^= streamBytes[index - start] }
        }
        func padded(_ data: [UInt8]) -> [UInt8] { data + [UInt8](repeating: 0, count: (16 - data.count % 16) % 16) }
        let s = ghash(h, padded(additionalData) + padded(ciphertext) + bytes(UInt64(additionalData.count * 8)) + bytes(UInt64(ciphertext.count * 8)))
        let mask = block(cipher, j0)
        let tag = bytes(s.0 ^ (UInt64(mask.0) << 32 | UInt64(mask.1))) + bytes(s.1 ^ (UInt64(mask.2) << 32 | UInt64(mask.3)))
        return ciphertext + tag
    }

    static func randomBytes(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// Lengths around 1 and 4 blocks and their multiples, with AAD of 0, 5 (a TLS record
    /// header), 13, 16, 64 and 70 bytes and nonces of 12, 8 and 60 bytes.
    @Test(arguments: [12, 8, 60])
    func sealAndOpenMatchThePlainGCM(nonceLength: Int) throws {
        var random = SplitMix64(seed: UInt64(nonceLength))
        let lengths = [0, 1, 15, 16, 17, 31, 48, 63, 64, 65, 79, 80, 127, 128, 129, 191, 255, 256, 300, 333, 1000]
        let aadLengths = [0, 5, 13, 16, 64, 70]
        for (index, length) in lengths.enumerated() {
            let key = Self.randomBytes(16, &random)
            let nonce = Self.randomBytes(nonceLength, &random)
            let plaintext = Self.randomBytes(length, &random)
            let additionalData = Self.randomBytes(aadLengths[index % aadLengths.count], &random)
            let aead = try #require(AES128GCM(key: key))
            let expected = try Self.referenceSeal(key: key, nonce: nonce, plaintext: plaintext, additionalData: additionalData)
            let sealed = aead.seal(plaintext, nonce: nonce, additionalData: additionalData)
            #expect(sealed == expected, "length \(length), AAD \(additionalData.count), nonce \(nonceLength)")
            #expect(aead.open(expected[...], nonce: nonce, additionalData: additionalData) == plaintext)
            // A handshake's key (no GHASH power tables) seals and opens the same bytes.
            let fewRecords = try #require(AES128GCM(key: key, fewRecords: true))
            #expect(fewRecords.seal(plaintext, nonce: nonce, additionalData: additionalData) == expected, "fewRecords, length \(length)")
            #expect(fewRecords.open(expected[...], nonce: nonce, additionalData: additionalData) == plaintext)
        }
    }

    /// A 16 KiB record (the TLS maximum): the counter's last byte wraps four times, and J0's
    /// last byte is chosen (8-byte nonces, searched) to wrap on the first and second block too.
    @Test func longRecordsAcrossTheCounterByteWrap() throws {
        var random = SplitMix64(seed: 16384)
        for round in 0..<4 {
            let key = Self.randomBytes(16, &random)
            let nonce = Self.randomBytes(round == 0 ? 12 : 8, &random)
            let plaintext = Self.randomBytes(16384 + round, &random)
            let additionalData: [UInt8] = [23, 3, 3, 0x40, UInt8(17 + round)]
            let aead = try #require(AES128GCM(key: key))
            let expected = try Self.referenceSeal(key: key, nonce: nonce, plaintext: plaintext, additionalData: additionalData)
            #expect(aead.seal(plaintext, nonce: nonce, additionalData: additionalData) == expected, "round \(round)")
            #expect(aead.open(expected[...], nonce: nonce, additionalData: additionalData) == plaintext)
        }
        // J0 ending in 0xfe and 0xff: the first or second counter block wraps its last byte.
        let key = Self.randomBytes(16, &random)
        let aead = try #require(AES128GCM(key: key))
        var found: Set<UInt32> = []
        var attempts = 0
        while found.count < 2 && attempts < 5000 {
            attempts += 1
            let nonce = Self.randomBytes(8, &random)
            let last = Self.lastCounterByte(key: key, nonce: nonce)
            guard last == 0xfe || last == 0xff, !found.contains(last) else { continue }
            found.insert(last)
            let plaintext = Self.randomBytes(600, &random)
            let expected = try Self.referenceSeal(key: key, nonce: nonce, plaintext: plaintext, additionalData: [1, 2, 3])
            #expect(aead.seal(plaintext, nonce: nonce, additionalData: [1, 2, 3]) == expected, "J0 ending in \(last)")
        }
        #expect(found.count == 2)
    }

    /// The last byte of J0 for a non-12-byte nonce (GHASH of the nonce block and its length).
    static func lastCounterByte(key: [UInt8], nonce: [UInt8]) -> UInt32 {
        guard let cipher = AES(key: key) else { return 0 }
        let zero = block(cipher, (0, 0, 0, 0))
        let h = (UInt64(zero.0) << 32 | UInt64(zero.1), UInt64(zero.2) << 32 | UInt64(zero.3))
        let padded = nonce + [UInt8](repeating: 0, count: (16 - nonce.count % 16) % 16) + bytes(0) + bytes(UInt64(nonce.count * 8))
        return UInt32(truncatingIfNeeded: ghash(h, padded).1 & 0xff)
    }
}
