@testable import PushCore
import Testing
@testable import Contracts

/// The reader never traps, and what it reads it reads faithfully.
@Suite struct JSONReaderRobustnessTests {
    static let payload = #"{"aps":{"alert":{"title":"On the way","body":"Your order \"8F3K\" is on the way — 12 min\n🛵"},"mutable-content":1,"category":"ORDER_UPDATE","thread-id":"order-8F3K","sound":"default","badge":0},"notificationId":"91","accountId":"a1","route":"orders/8F3K","orderVersion":7,"secret":"c2VjcmV0IGNpcGhlcnRleHQ=","imageUrl":"https://img.example.com/rider/12.jpg","ratio":0.75,"big":-12345678901234567890,"exp":1e-3,"flags":[true,false,null],"empty":{},"none":[],"tab":"a\tb\u0001"}"#

    /// Checks an outcome is sane: a tree whose root lies inside the input, or an error
    /// whose position lies inside (or just past) it.
    func expectSane(_ bytes: [UInt8]) -> Bool {
        do {
            let node = try JSONReader.parse(bytes)
            #expect(node.position.offset < bytes.count)
            return true
        } catch {
            #expect(error.position.offset >= 0 && error.position.offset <= bytes.count, "\(bytes)")
            #expect(error.position.line >= 1 && error.position.column >= 1)
            #expect(error.position.column <= error.position.offset + 1)
            #expect(!error.message.isEmpty)
            return false
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SplitMix64(seed: 0x5EED_0001)
        let alphabet = Array(#"{}[],:"\ 0123456789-+.eEtrufalsn/u"#.utf8) + [0x0A, 0x0D, 0x09, 0x00, 0xC3, 0xA9, 0xED, 0xF4, 0xFF, 0x80]
        var accepted = 0
        var rejected = 0
        for _ in 0..<3000 {
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ -> UInt8 in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator) ?? 0
                    : UInt8.random(in: 0...255, using: &generator)
            }
            if expectSane(bytes) { accepted += 1 } else { rejected += 1 }
        }
        #expect(rejected > 0)
        #expect(accepted + rejected == 3000)
    }

    @Test func mutatedPayloadsNeverTrap() {
        var generator = SplitMix64(seed: 0x5EED_0002)
        let original = Array(Self.payload.utf8)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(Array(#"{}[],:"\"#.utf8).randomElement(using: &generator) ?? 0, at: at)
                default: bytes = Array(bytes[..<at])
                }
                if bytes.isEmpty { break }
            }
            if expectSane(bytes) { accepted += 1 }
        }
        // Some mutations land inside strings and still parse; most break the document.
        #expect(accepted > 0 && accepted < 3000)
    }

    /// Inputs that once broke (or nearly broke) the reader; every fuzz crash is added here.
    @Test(arguments: [
        [UInt8](), [0x22], [0x5C], [0x2D], [0x30, 0x2E], [0x22, 0x5C, 0x75], [0x22, 0x5C, 0x75, 0x44, 0x38, 0x30, 0x30, 0x5C],
        [0x22, 0x5C, 0x75, 0x44, 0x38, 0x30, 0x30, 0x5C, 0x75, 0x44], [0xEF, 0xBB], [0xEF], [0x7B, 0x22, 0x22, 0x3A],
        [0x5B, 0x2C], [0xF4], [0xE0, 0xA0], [0x22, 0xF0, 0x90, 0x80], Array("[1e".utf8), Array("{\"a\":1,".utf8),
    ] as [[UInt8]])
    func regressionInputs(_ bytes: [UInt8]) {
        _ = expectSane(bytes)
    }

    // MARK: Round trip

    /// A compact writer: the inverse of the reader for documents in this canonical form.
    static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += number.literal
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                write(element.value, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value.value, into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    @Test func realisticPayloadRoundTrips() throws {
        let root = try JSONReader.parse(Self.payload)
        var written = ""
        Self.write(root.value, into: &written)
        #expect(written == Self.payload)

        let aps = try #require(root.member("aps")?.value)
        #expect(aps.member("mutable-content")?.value.integerValue == 1)
        #expect(aps.member("alert")?.value.member("body")?.value.stringValue == "Your order \"8F3K\" is on the way — 12 min\n🛵")
        #expect(root.member("orderVersion")?.value.integerValue == 7)
        #expect(root.member("big")?.value.numberValue?.isIntegerLiteral == true)
        #expect(root.member("big")?.value.integerValue == nil)
        #expect(root.member("ratio")?.value.numberValue?.doubleValue == 0.75)
        #expect(root.duplicateKeys.isEmpty)
        // Every key's recorded offset points at its opening quote in the source.
        let bytes = Array(Self.payload.utf8)
        for member in try #require(root.objectMembers) {
            #expect(bytes[member.keyPosition.offset] == UInt8(ascii: "\""))
        }
    }

    @Test func prettyAndCompactFormsReadAlike() throws {
        let pretty = """
        {
          "aps" : {
            "alert" : { "title" : "Offer", "body" : "20% off" },
            "category" : "OFFER"
          },
          "route" : "offers/77",
          "notificationId" : "n-1"
        }
        """
        var written = ""
        Self.write(try JSONReader.parse(pretty).value, into: &written)
        #expect(written == #"{"aps":{"alert":{"title":"Offer","body":"20% off"},"category":"OFFER"},"route":"offers/77","notificationId":"n-1"}"#)
        let route = try #require(try JSONReader.parse(pretty).member("route"))
        #expect(route.keyPosition.description == "6:3")
        #expect(route.value.position.description == "6:13")
    }
}

/// The fast decimal path must agree bit for bit with the full decimal parser.
@Suite struct JSONReaderDecimalTests {
    @Test func fastPathMatchesDoubleParsing() throws {
        var generator = SplitMix64(seed: 0xDEC1_0000)
        for _ in 0..<5000 {
            let integer = UInt64.random(in: 0...9_999_999_999, using: &generator)
            let fraction = String(UInt64.random(in: 0...99_999_999, using: &generator))
            let exponent = Int.random(in: -30...30, using: &generator)
            var literal = (Bool.random(using: &generator) ? "-" : "") + String(integer)
            if Bool.random(using: &generator) { literal += "." + fraction }
            if Bool.random(using: &generator) { literal += "e\(exponent)" }
            let number = try #require(try JSONReader.parse(literal).numberValue)
            let expected = try #require(Double(literal))
            #expect(number.doubleValue.bitPattern == expected.bitPattern, "\(literal)")
        }
        for literal in ["0.1", "0.3", "-0.0", "9007199254740993.5", "1.7976931348623157e308", "4.9e-324", "123456789012345678.9", "1e22", "1e23", "0.000001"] {
            let number = try #require(try JSONReader.parse(literal).numberValue)
            #expect(number.doubleValue.bitPattern == Double(literal)?.bitPattern, "\(literal)")
        }
    }
}
