import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// One header block of an RFC 7541 Appendix C sequence.
struct HPACKExample: Sendable, CustomStringConvertible {
    var section: String
    var fields: [(name: String, value: String)]
    var hex: String
    var tableSizeAfter: Int
    var description: String { section }
}

private let date21 = "Mon, 21 Oct 2013 20:13:21 GMT"
private let date22 = "Mon, 21 Oct 2013 20:13:22 GMT"
private let cookie = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"
private let request1: [(name: String, value: String)] = [
    (":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com"),
]
private let request2 = request1 + [("cache-control", "no-cache")]
private let request3: [(name: String, value: String)] = [
    (":method", "GET"), (":scheme", "https"), (":path", "/index.html"),
    (":authority", "www.example.com"), ("custom-key", "custom-value"),
]
private let response1: [(name: String, value: String)] = [
    (":status", "302"), ("cache-control", "private"), ("date", date21), ("location", "https://www.example.com"),
]
private let response2: [(name: String, value: String)] = [
    (":status", "307"), ("cache-control", "private"), ("date", date21), ("location", "https://www.example.com"),
]
private let response3: [(name: String, value: String)] = [
    (":status", "200"), ("cache-control", "private"), ("date", date22), ("location", "https://www.example.com"),
    ("content-encoding", "gzip"), ("set-cookie", cookie),
]

/// A sequence of blocks on one connection: (section, huffman, table size, blocks).
struct HPACKSequence: Sendable, CustomStringConvertible {
    var section: String
    var huffman: Bool
    var tableSize: Int
    var blocks: [HPACKExample]
    var description: String { section }
}

let appendixC: [HPACKSequence] = [
    HPACKSequence(section: "C.3", huffman: false, tableSize: 4096, blocks: [
        HPACKExample(section: "C.3.1", fields: request1, hex: "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", tableSizeAfter: 57),
        HPACKExample(section: "C.3.2", fields: request2, hex: "8286 84be 5808 6e6f 2d63 6163 6865", tableSizeAfter: 110),
        HPACKExample(section: "C.3.3", fields: request3, hex: "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65", tableSizeAfter: 164),
    ]),
    HPACKSequence(section: "C.4", huffman: true, tableSize: 4096, blocks: [
        HPACKExample(section: "C.4.1", fields: request1, hex: "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", tableSizeAfter: 57),
        HPACKExample(section: "C.4.2", fields: request2, hex: "8286 84be 5886 a8eb 1064 9cbf", tableSizeAfter: 110),
        HPACKExample(section: "C.4.3", fields: request3, hex: "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", tableSizeAfter: 164),
    ]),
    HPACKSequence(section: "C.5", huffman: false, tableSize: 256, blocks: [
        HPACKExample(section: "C.5.1", fields: response1, hex: """
            4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
            2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
            6c65 2e63 6f6d
            """, tableSizeAfter: 222),
        HPACKExample(section: "C.5.2", fields: response2, hex: "4803 3330 37c1 c0bf", tableSizeAfter: 222),
        HPACKExample(section: "C.5.3", fields: response3, hex: """
            88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
            54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
            5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
            3d31
            """, tableSizeAfter: 215),
    ]),
    HPACKSequence(section: "C.6", huffman: true, tableSize: 256, blocks: [
        HPACKExample(section: "C.6.1", fields: response1, hex: """
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
            2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3
            """, tableSizeAfter: 222),
        HPACKExample(section: "C.6.2", fields: response2, hex: "4883 640e ffc1 c0bf", tableSizeAfter: 222),
        HPACKExample(section: "C.6.3", fields: response3, hex: """
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
            77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
            9587 3160 65c0 03ed 4ee5 b106 3d50 07
            """, tableSizeAfter: 215),
    ]),
]

private func pairs(_ fields: [HPACKDecoder.Field]) -> [String] { fields.map { "\($0.name): \($0.value)" } }
private func pairs(_ fields: [(name: String, value: String)]) -> [String] { fields.map { "\($0.name): \($0.value)" } }

@Suite struct HPACKTests {
    @Test func integerExamplesOfC1() throws {
        var out: [UInt8] = []
        HPACKPrimitives.appendInteger(10, prefixBits: 5, flags: 0, into: &out)
        #expect(out == [0x0a])
        out = []
        HPACKPrimitives.appendInteger(1337, prefixBits: 5, flags: 0, into: &out)
        #expect(out == [0x1f, 0x9a, 0x0a])
        var position = 0
        #expect(try HPACKPrimitives.readInteger(out, at: &position, prefixBits: 5) == 1337)
        out = []
        HPACKPrimitives.appendInteger(42, prefixBits: 8, flags: 0, into: &out)
        #expect(out == [42])
    }

    @Test func fieldRepresentationsOfC2() throws {
        // C.2.1 literal with indexing, C.2.2 without, C.2.3 never indexed, C.2.4 indexed.
        let cases: [(String, (name: String, value: String), HPACKEncoder.Indexing, Set<String>, Int)] = [
            ("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", ("custom-key", "custom-header"), .incrementalIndexing, [], 55),
            ("040c 2f73 616d 706c 652f 7061 7468", (":path", "/sample/path"), .staticTableOnly, [], 0),
            ("1008 7061 7373 776f 7264 0673 6563 7265 74", ("password", "secret"), .staticTableOnly, ["password"], 0),
            ("82", (":method", "GET"), .staticTableOnly, [], 0),
        ]
        for (hex, field, indexing, sensitive, size) in cases {
            var decoder = HPACKDecoder()
            let decoded = try decoder.decode(hexBytes(hex))
            #expect(pairs(decoded) == ["\(field.name): \(field.value)"])
            #expect(decoder.table.size == size)
            var encoder = HPACKEncoder(indexing: indexing, huffman: false)
            var out: [UInt8] = []
            encoder.encode([field], sensitive: sensitive, into: &out)
            #expect(out == hexBytes(hex))
        }
    }

    /// The static-table-only encoder keeps each name's representation after its first block
    /// (issue 41): blocks from that cache are the bytes the tables give, on every block after
    /// the first, with and without Huffman, for names in the static table (with and without a
    /// value there) and names that are not.
    @Test(arguments: [false, true])
    func staticTableOnlyBlocksFromCachedNamesMatchTheTables(huffman: Bool) throws {
        let blocks: [[(name: String, value: String)]] = [
            [(":status", "200"), ("apns-id", "6B2A8E51-7C1D-4F7E-9A0B-3C5D2E1F4A6B")],
            [(":status", "400"), ("content-type", "application/json"), ("apns-id", "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")],
            [(":status", "418"), ("apns-unique-id", "a1b2c3d4-e5f6-4789-8abc-def012345678"), ("content-length", "0")],
            [(":status", "200"), ("apns-id", "6B2A8E51-7C1D-4F7E-9A0B-3C5D2E1F4A6B")],
        ]
        // A second encoder whose cache is full of other names encodes these from the tables.
        var fromTables = HPACKEncoder(huffman: huffman)
        var scratch: [UInt8] = []
        fromTables.encode((0..<HPACKEncoder.cachedNamesKept).map { ("x-filler-\($0)", "v") }, into: &scratch)
        var cached = HPACKEncoder(huffman: huffman)
        for round in 0..<3 {
            for fields in blocks {
                var expected: [UInt8] = []
                fromTables.encode(fields, into: &expected)
                var out: [UInt8] = []
                cached.encode(fields, into: &out)
                #expect(out == expected, "round \(round): \(fields)")
                var decoder = HPACKDecoder()
                #expect(pairs(try decoder.decode(out)) == pairs(fields))
            }
        }
        if !huffman {
            var out: [UInt8] = []
            cached.encode([(":status", "200"), (":status", "418"), ("apns-id", "x")], into: &out)
            #expect(out == hexBytes("88 0803 343138 0007 61706e732d6964 0178"))
        }
    }

    @Test(arguments: appendixC)
    func decodesAppendixCSequence(_ sequence: HPACKSequence) throws {
        var decoder = HPACKDecoder(maximumTableSize: sequence.tableSize)
        for block in sequence.blocks {
            let decoded = try decoder.decode(hexBytes(block.hex))
            #expect(pairs(decoded) == pairs(block.fields), "\(block.section)")
            #expect(decoder.table.size == block.tableSizeAfter, "\(block.section)")
        }
    }

    @Test(arguments: appendixC)
    func encodesAppendixCSequence(_ sequence: HPACKSequence) {
        var encoder = HPACKEncoder(indexing: .incrementalIndexing, huffman: sequence.huffman, maximumTableSize: sequence.tableSize)
        for block in sequence.blocks {
            var out: [UInt8] = []
            encoder.encode(block.fields, into: &out)
            #expect(out == hexBytes(block.hex), "\(block.section)")
            #expect(encoder.table.size == block.tableSizeAfter, "\(block.section)")
        }
    }

    @Test func huffmanRoundTripsEveryOctet() throws {
        let all = (0...255).map { UInt8($0) }
        var coded: [UInt8] = []
        HPACKHuffman.encode(all, into: &coded)
        #expect(coded.count == HPACKHuffman.encodedLength(all))
        var decoded: [UInt8] = []
        try HPACKHuffman.decode(coded[...], into: &decoded)
        #expect(decoded == all)
    }

    /// The word-at-a-time encoder against the code table read bit by bit, over random
    /// strings of every length up to 300 (so every alignment of the 32-bit stores and every
    /// padding), and string literals pick Huffman exactly when it is not longer.
    @Test func huffmanMatchesTheTableBitByBit() throws {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            var bits: [Bool] = []
            for byte in bytes {
                let code = HPACKHuffmanTable.codes[Int(byte)], length = Int(HPACKHuffmanTable.lengths[Int(byte)])
                for shift in stride(from: length - 1, through: 0, by: -1) { bits.append(code >> UInt32(shift) & 1 == 1) }
            }
            while bits.count % 8 != 0 { bits.append(true) }
            return stride(from: 0, to: bits.count, by: 8).map { start in
                bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            // Mostly header-like text, sometimes any octet (codes up to 30 bits).
            let wide = Bool.random(using: &generator)
            let bytes = (0..<length).map { _ in wide ? UInt8.random(in: 0...255, using: &generator) : UInt8.random(in: 0x20...0x7e, using: &generator) }
            var coded: [UInt8] = [0xAA]
            HPACKHuffman.encode(bytes, into: &coded)
            #expect(Array(coded.dropFirst()) == reference(bytes), "\(bytes)")
            var decoded: [UInt8] = []
            try HPACKHuffman.decode(coded.dropFirst(), into: &decoded)
            #expect(decoded == bytes)
            var literal: [UInt8] = []
            HPACKPrimitives.appendString(String(decoding: bytes, as: UTF8.self), huffman: true, into: &literal)
            let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
            var position = 0
            let read = try HPACKPrimitives.readString(literal, at: &position)
            #expect(Array(read) == text && position == literal.count)
            #expect(((literal.first ?? 0) & 0x80 != 0) == (HPACKHuffman.encodedLength(text) <= text.count))
        }
    }

    @Test func huffmanRejectsEOSAndBadPadding() {
        var out: [UInt8] = []
        // 30 one-bits: the EOS symbol itself.
        #expect(throws: HPACKError.huffmanEOSDecoded) { try HPACKHuffman.decode([0xff, 0xff, 0xff, 0xff][...], into: &out) }
        // "a" is 00011 (5 bits); padding with zeros is not the EOS prefix.
        #expect(throws: HPACKError.invalidHuffmanPadding) { try HPACKHuffman.decode([0b0001_1000][...], into: &out) }
        // 'a' then 8 one-bits of padding: longer than 7 bits.
        #expect(throws: HPACKError.invalidHuffmanPadding) { try HPACKHuffman.decode([0b0001_1111, 0xff][...], into: &out) }
    }

    /// Long literal values sent again in the same octets are taken from the decoder's kept
    /// ones (issue 41): over blocks that repeat, vary by one octet (same length, Huffman or
    /// not) and bring more long values than are kept, one long-lived decoder gives what a new
    /// decoder gives for each block alone.
    @Test func repeatedLongLiteralsDecodeAsSent() throws {
        let token = "bearer " + String(repeating: "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMyJ9", count: 4)
        // The paths differ in their last octet only, which is not in a whole word (75 octets sent).
        let path = "/3/device/" + String(repeating: "ab", count: 32)
        var values = [token, token.replacingOccurrences(of: "kid", with: "kiD"), path, path.dropLast() + "c"]
        values += (0..<HPACKDecoder.repeatedLiteralsKept + 2).map { "value \($0) " + String(repeating: "x", count: 40) }
        var kept = HPACKDecoder()
        for round in 0..<3 {
            for (offset, value) in values.enumerated() {
                for huffman in [true, false] {
                    let fields = [(name: "authorization", value: value), (name: "x-extra", value: values[(offset + round) % values.count])]
                    var encoder = HPACKEncoder(indexing: .staticTableOnly, huffman: huffman)
                    var block: [UInt8] = []
                    encoder.encode(fields, sensitive: ["authorization"], into: &block)
                    var fresh = HPACKDecoder()
                    let expected = try fresh.decode(block)
                    #expect(pairs(expected) == pairs(fields))
                    #expect(try pairs(kept.decode(block)) == pairs(expected))
                }
            }
        }
    }

    /// What a decoder keeps of long literals is bounded (issue 41): a value over
    /// `repeatedLiteralMaximum` octets is decoded, not kept, and many long ones keep at most
    /// `repeatedLiteralsKept` of them.
    @Test func keptLiteralsStayBounded() throws {
        var decoder = HPACKDecoder()
        let huge = String(repeating: "t", count: 20_000)
        var encoder = HPACKEncoder(indexing: .staticTableOnly, huffman: false)
        var block: [UInt8] = []
        encoder.encode([(name: "authorization", value: huge)], sensitive: ["authorization"], into: &block)
        #expect(try pairs(decoder.decode(block)) == ["authorization: \(huge)"])
        #expect(decoder.keptLiteralOctets == 0)
        for index in 0..<10 {
            let value = "\(index) " + String(repeating: "v", count: HPACKDecoder.repeatedLiteralMaximum - 2)
            block = []
            encoder.encode([(name: "x-long", value: value)], into: &block)
            #expect(try pairs(decoder.decode(block)) == ["x-long: \(value)"])
        }
        #expect(decoder.keptLiteralOctets > 0)
        #expect(decoder.keptLiteralOctets <= HPACKDecoder.repeatedLiteralsKept * (HPACKDecoder.repeatedLiteralMaximum + 3))
    }

    @Test func decoderErrorsAreValues() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.indexOutOfRange(62)) { try decoder.decode([0xbe]) }
        #expect(throws: HPACKError.indexOutOfRange(0)) { try decoder.decode([0x80]) }
        #expect(throws: HPACKError.integerOverflow) { try decoder.decode([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]) }
        #expect(throws: HPACKError.truncated) { try decoder.decode([0xff]) }
        #expect(throws: HPACKError.stringTooLong) { try decoder.decode([0x40, 0x05, 0x61]) }
        #expect(throws: HPACKError.sizeUpdateNotAtBlockStart) { try decoder.decode([0x82, 0x20]) }
        #expect(throws: HPACKError.sizeUpdateTooLarge(4097)) { try decoder.decode([0x3f, 0xe2, 0x1f]) }
    }

    @Test func sizeUpdateEvictsAndHeaderListLimitKeepsTableInStep() throws {
        var decoder = HPACKDecoder(maximumTableSize: 4096, maximumHeaderListSize: 60)
        // custom-key: custom-header (55 octets) is within 60, inserted.
        _ = try decoder.decode(hexBytes("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
        #expect(decoder.table.count == 1)
        // Twice that exceeds the list limit: an error, but the insertion still happened.
        #expect(throws: HPACKError.headerListTooLarge) {
            try decoder.decode(hexBytes("be 400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"))
        }
        #expect(decoder.table.count == 2)
        // A size update to 0 empties the table.
        _ = try decoder.decode([0x20, 0x82])
        #expect(decoder.table.count == 0)
    }

    @Test func encoderSignalsTableSizeChange() throws {
        var encoder = HPACKEncoder()
        encoder.setMaximumTableSize(0)
        var out: [UInt8] = []
        encoder.encode([(":status", "200")], into: &out)
        #expect(out == [0x20, 0x88])
        var decoder = HPACKDecoder()
        #expect(pairs(try decoder.decode(out)) == [":status: 200"])
    }
}
