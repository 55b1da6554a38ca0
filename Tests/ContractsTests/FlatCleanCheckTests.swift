@testable import PushCore
@testable import Contracts
import Testing

/// The payload contract's clean check on bytes (``FlatJSON``, ``SchemaAdmission`` and
/// ``PayloadRules/allHold`` without a tree) against the reader and the full validation:
/// whatever it passes, ``JSONReader`` reads and `validateFully` passes, and it passes the
/// plain clean payloads the tree's clean check passes.
@Suite struct FlatCleanCheckTests {
    /// Random payloads, the fixtures, and both with one byte changed (often breaking the syntax).
    static func documents() -> [[UInt8]] {
        var g = SplitMix64(seed: 0xF1A7)
        let interesting: [UInt8] = Array("{}[]\",:0123456789-+.eE truefalsnul\\u/~é\t\n".utf8)
        var documents: [[UInt8]] = []
        var originals = FixtureCatalog.all.map(\.bytes).filter { !$0.isEmpty }
        for _ in 0..<2_000 { originals.append(Array(PayloadFastPathTests.randomPayload(&g).utf8)) }
        for original in originals {
            documents.append(original)
            for _ in 0..<2 {
                var bytes = original
                bytes[Int.random(in: 0..<bytes.count, using: &g)] = interesting.randomElement(using: &g) ?? 0
                documents.append(bytes)
            }
        }
        documents += ["", " ", "{}", "[]", "1", "-0", "01", "1.0", "1e2", "\u{FEFF}{}", "{\"a\":1}x", "{\"a\" 1}", "[1,]", "{,}",
                      "{\"aps\":{\"alert\":\"x\"},\"notificationId\":\"n1\"}", "{\"aps\":{\"alert\":\"x\"},\"notificationId\":\"n1\",\"notificationId\":\"n1\"}",
                      "{\"aps\":{\"alert\":\"x\",\"badge\":123456789012345678901},\"notificationId\":\"n1\"}"].map { Array($0.utf8) }
        return documents
    }

    @Test func passesOnlyWhatTheReaderReadsAndTheValidatorPasses() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let isClean = try #require(payload.cleanCheck.isClean)
        var passed = 0, treePassedPlain = 0
        for (round, bytes) in Self.documents().enumerated() {
            let limit = round % 13 == 0 ? 40 : ValidationOptions.standardPayloadLimit
            let options = ValidationOptions(sourceByteCount: round % 11 == 0 ? nil : bytes.count, maximumPayloadBytes: limit)
            let flat = bytes.withUnsafeBufferPointer { payload.isClean($0, options: options) }
            let document = try? JSONReader.parse(bytes)
            if flat {
                passed += 1
                let text = String(decoding: bytes, as: UTF8.self)
                let parsed = try #require(document, "\(text)")
                #expect(payload.validateFully(parsed, options: options).isEmpty, "\(text)")
            }
            // A document FlatJSON reads (plain ASCII, no escape, no fraction) that the tree's check passes, the flat one passes too.
            let readable = bytes.withUnsafeBufferPointer { FlatJSON($0) != nil }
            if let document, readable, isClean(document, options) {
                treePassedPlain += 1
                #expect(flat, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(passed > 300)
        #expect(passed == treePassedPlain)
    }

    @Test func readsTheValuesTheReaderReads() throws {
        let text = #" { "a" : [ 1 , -23, true,false , null, "x y", {}, [] ], "b": {"c": 123456789012345678} } "#
        let bytes = Array(text.utf8)
        let flat = try #require(bytes.withUnsafeBufferPointer { FlatJSON($0).map { ($0.nodes, $0.nodes.map(\.kind)) } })
        #expect(flat.1 == [.object, .string, .array, .number, .number, .bool, .bool, .null, .string, .object, .array,
                           .string, .object, .string, .number])
        #expect(flat.0[3].integer == 1 && flat.0[4].integer == -23 && flat.0[5].flag && !flat.0[6].flag)
        #expect(flat.0[14].integer == 123_456_789_012_345_678)
        #expect(flat.0[0].count == 2 && flat.0[2].count == 8 && flat.0[2].next == 11 && flat.0[0].next == 15)
        for declined in ["\"\\n\"", "\"é\"", "1.5", "1e3", "-0", "0123", "1234567890123456789", "[1 2]", "{\"a\":1,}", "tru", "\u{FEFF}1",
                         String(repeating: "[", count: 17) + String(repeating: "]", count: 17)] {
            #expect(Array(declined.utf8).withUnsafeBufferPointer { FlatJSON($0) } == nil, "\(declined)")
        }
        #expect(Array((String(repeating: "[", count: 16) + String(repeating: "]", count: 16)).utf8).withUnsafeBufferPointer { FlatJSON($0) } != nil)
        // At most maxNodes values and keys: the array and 255 numbers read, 256 numbers decline.
        for (numbers, reads) in [(255, true), (256, false)] {
            let text = "[" + Array(repeating: "7", count: numbers).joined(separator: ",") + "]"
            let nodes = Array(text.utf8).withUnsafeBufferPointer { FlatJSON($0)?.nodes }
            #expect((nodes != nil) == reads && (nodes?.count ?? numbers &+ 1) == numbers &+ 1 && nodes?.last?.integer ?? 7 == 7)
        }
    }

    @Test func stringSchemasAdmitTheSameASCIIBytesAsStrings() {
        let schemas = [StringSchema(minLength: 1, format: .base64), StringSchema(minLength: 1, maxLength: 8, format: .identifier),
                       StringSchema(allowedValues: ["ORDER_UPDATE", "OFFER"]), StringSchema(format: .httpsURL),
                       StringSchema(minLength: 2, maxLength: 3), StringSchema(format: .hexBytes),
                       StringSchema(minLength: 1, maxLength: 200), StringSchema(format: .identifier),
                       StringSchema(allowedValues: ["passive", "active", "time-sensitive", "critical", "a"])]
        var g = SplitMix64(seed: 0xB64)
        let alphabet = Array("AZaz09+/=-_:.ORDEFUPT ~\"".utf8)
        var texts = ["", "QQ==", "QUI=", "QUJD", "Q===", "ORDER_UPDATE", "OFFER", "offer", "https://a.example/x", "http://a", "0a", "0A1",
                     "https://", "https://a", "https://a:443/x", "https://a:123456", "https://a:", "https://a b", "https://a/b c",
                     "https://a?q", "https://a#f", "https://a_b", "https://-.", "https:/a.b", "HTTPS://a", "https://a/\t", "a-b_C9", "a.b"]
        for round in 0..<3_000 {
            texts.append((round % 3 == 0 ? "https://" : "") + String(decoding: (0..<Int.random(in: 0..<14, using: &g)).map { _ in alphabet.randomElement(using: &g) ?? 0 }, as: UTF8.self))
        }
        var admitted = 0
        for schema in schemas {
            for text in texts {
                let expected = schema.admits(text)
                if expected { admitted += 1 }
                let check = ASCIIStringCheck(schema)
                #expect(Array(text.utf8).withUnsafeBufferPointer { check.admits($0) } == expected, "\(text)")
                // Read in place in a document, with bytes after it: one load for an allowed value's first bytes.
                let count = text.utf8.count
                let document = Array(text.utf8) + Array("\"}~~~~~~~".utf8)
                #expect(document.withUnsafeBufferPointer { check.admits(UnsafeBufferPointer(rebasing: $0[..<count]), readable: $0.count) } == expected, "\(text)")
            }
        }
        #expect(admitted > 500)
    }

    /// A long `secret` is checked as base64 in the same pass that finds its end (16 bytes at
    /// a time): one byte outside the alphabet, in any block, still fails the format, as the
    /// validator says; a plain one still passes.
    @Test func longSecretsAreCheckedAsBase64InTheStringScan() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        func check(_ secret: String) -> (flat: Bool, full: Bool) {
            let bytes = Array(#"{"aps":{"alert":"x","mutable-content":1},"notificationId":"n1","secret":"\#(secret)"}"#.utf8)
            let options = ValidationOptions(sourceByteCount: bytes.count)
            let flat = bytes.withUnsafeBufferPointer { payload.isClean($0, options: options) }
            return (flat, (try? JSONReader.parse(bytes)).map { payload.validateFully($0, options: options).isEmpty } ?? false)
        }
        var declined = 0
        for length in [16, 20, 32, 36, 48, 64, 100] {
            let plain = String(repeating: "QUJD", count: length / 4)
            let plainResult = check(plain), paddedResult = check(String(plain.dropLast(2)) + "==")
            #expect(plainResult.flat && plainResult.full && paddedResult.flat && paddedResult.full, "\(length)")
            for position in 0..<length {
                // "ð" is C3 B0: seven low bits of each spell base64 ("C0").
                for bad in ["-", "_", ".", "~", "=", " ", "\u{F0}", "\""] {
                    var secret = Array(plain)
                    secret[position] = Character(bad)
                    // Two bytes for one character: drop the next, so the length stays a multiple of 4.
                    if bad.utf8.count == 2, position + 1 < secret.count { secret.remove(at: position + 1) }
                    let result = check(String(secret))
                    #expect(result.flat == result.full, "\(String(secret))")
                    if !result.full { declined += 1 }
                }
            }
        }
        #expect(declined > 2_000)
        // What the scan noted: the whole blocks before the first byte outside the alphabet.
        let text = Array(#"["\#(String(repeating: "A", count: 40))","AAAAAAAAAAAAAAAAA-AAAAAAAAAAAAAAAAAAA","AAAA"]"#.utf8)
        let checked = try #require(text.withUnsafeBufferPointer { FlatJSON($0)?.nodes.map(\.base64Checked) })
        #expect(checked == [0, 32, 16, 0])
    }

    /// Member names and allowed values are found by their head in one probe (or a linear
    /// search when heads collide or there are many): every name, and no near miss.
    @Test func byteKeysFindEveryNameAndNothingElse() {
        let sets: [[String]] = [
            ["aps", "notificationId", "accountId", "route", "orderVersion", "secret", "imageUrl"],
            ["alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content", "target-content-id",
             "interruption-level", "relevance-score", "filter-criteria"],
            ["title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args", "subtitle-loc-key",
             "subtitle-loc-args", "loc-key", "loc-args"],
            (0..<40).map { "member\($0)" },
            ["a", "b", "", "abcdefgh", "abcdefgX", "abcdefghi"],
            ["same-head-1", "same-head-2", "ORDER_UPDATE", "OFFER"],
        ]
        var found = 0
        for names in sets {
            let keys = ByteKeys(names)
            var probes = names
            for name in names { probes += [name + "x", String(name.dropLast()), name.uppercased(), "x" + name, "a" + name.dropFirst()] }
            for probe in probes {
                let expected = names.firstIndex(of: probe)
                if expected != nil { found += 1 }
                let bytes = Array(probe.utf8)
                #expect(bytes.withUnsafeBufferPointer { keys.index(of: $0) } == expected, "\(probe)")
                let document = bytes + Array("\":1}xxxxxxxx".utf8)
                #expect(document.withUnsafeBufferPointer { keys.index(of: UnsafeBufferPointer(rebasing: $0[..<bytes.count]), readable: $0.count) } == expected,
                        "\(probe)")
            }
        }
        #expect(found > 80)
    }
}
