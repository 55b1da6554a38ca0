@testable import Contracts
import Foundation
import Testing

/// The fast accept against the general path (JSONReader + the validator) over valid bodies
/// and thousands of mutations of them: whatever it accepts, the general path accepts with no
/// violation and the same values; and every plain body the general path accepts, it accepts.
@Suite struct PlainInputAcceptorTests {
    static let publicKey = Data([0x04] + (1...64).map { UInt8($0) }).base64EncodedString()

    /// A team contract with optional members and string bounds, no rules.
    static let team = Contract(
        name: "profile", direction: .appToBackend, summary: "A test contract.",
        schema: .object([
            .required("id", .string(minLength: 2, maxLength: 8, format: .identifier)),
            .optional("tier", .string(oneOf: ["gold", "silver"])),
            .optional("note", .string(maxLength: 5)),
            .optional("count", .integer(minimum: 0)),
            .optional("secret", .forbidden("never sent")),
        ]))

    static let registration = #"{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"\#(publicKey)"}"#

    /// Valid bodies written plainly: the fast path must take every one.
    static let plainSeeds: [(contract: String, body: String)] = [
        ("device-registration", registration),
        ("device-registration", " {\n\t\"publicKey\" : \"\(publicKey)\" ,\r\n \"appVersion\":\"10.0.31\", \"environment\":\"sandbox\",\"platform\":\"ios\"}  \n"),
        ("notification-opened", #"{"action":"trackOrder"}"#),
        ("profile", #"{"id":"ab-1","tier":"gold"}"#),
        ("profile", #"{"note":"hi ~","id":"x_y"}"#),
    ]

    /// Bodies near the edge of plain: each must give the general path's answer.
    static let oddBodies: [(contract: String, body: String)] = [
        ("device-registration", #"{"platform":"\u0069os","environment":"production","appVersion":"4.2.0","publicKey":"\#(publicKey)"}"#),
        ("device-registration", "\u{FEFF}" + registration),
        ("device-registration", registration.replacingOccurrences(of: "}", with: #","platform":"ios"}"#)),
        ("device-registration", registration.replacingOccurrences(of: "}", with: #","accountId":"a1"}"#)),
        ("device-registration", registration.replacingOccurrences(of: "}", with: #","extra":"x"}"#)),
        ("device-registration", registration.replacingOccurrences(of: "4.2.0", with: "4.02.0")),
        ("device-registration", registration.replacingOccurrences(of: "production", with: "Production")),
        ("device-registration", registration.replacingOccurrences(of: "ios", with: "iOS")),
        ("device-registration", registration + "x"),
        ("device-registration", "[" + registration + "]"),
        ("device-registration", "{}"),
        ("device-registration", ""),
        ("profile", #"{"id":"ab","count":1}"#),
        ("profile", #"{"id":"ab","note":null}"#),
        ("profile", #"{"id":"ab","secret":"s"}"#),
        ("profile", #"{"id":"a"}"#),
        ("profile", #"{"id":"abcdefghi"}"#),
        ("profile", #"{"id":"ab","note":"é"}"#),
        ("profile", #"{"id":"ab","tier":{"x":"y"}}"#),
        ("profile", #"{"tier":"gold"}"#),
    ]

    static func contract(_ name: String) -> Contract {
        name == "profile" ? team : ContractSet.v1.contract(named: name)!
    }

    /// Every deletion, replacement and insertion of one byte from a set of telling bytes.
    static func mutations(of body: String) -> [[UInt8]] {
        let bytes = Array(body.utf8)
        let telling: [UInt8] = Array(#""\,:{}[] azAZ09.=+/-~"#.utf8) + [0x0A, 0x09, 0x7F, 0x80, 0xC3, 0x00, 0x1F]
        var result: [[UInt8]] = []
        for index in bytes.indices {
            var deleted = bytes
            deleted.remove(at: index)
            result.append(deleted)
            for byte in telling {
                var replaced = bytes
                replaced[index] = byte
                result.append(replaced)
                var inserted = bytes
                inserted.insert(byte, at: index)
                result.append(inserted)
            }
        }
        return result
    }

    /// The first string value of a top-level member, as the backend reads a document.
    static func string(_ document: JSONNode, _ key: String) -> String? {
        guard case .object(let members) = document.value else { return nil }
        for member in members where member.key == key {
            if case .string(let text) = member.value.value { return text }
        }
        return nil
    }

    /// A body the fast path is meant to take when it is valid: an object of string members,
    /// printable ASCII, no escapes, no byte order mark.
    static func isPlain(_ bytes: [UInt8], _ document: JSONNode) -> Bool {
        guard bytes.allSatisfy({ ($0 >= 0x20 && $0 < 0x80 && $0 != 0x5C) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }),
              case .object(let members) = document.value, !members.isEmpty else { return false }
        return members.allSatisfy { if case .string = $0.value.value { return true } else { return false } }
    }

    /// What ``PlainInputAcceptor/withValues(of:_:)`` gives, by member index (an absent member
    /// has no entry), or nil when it declines `bytes`.
    static func values(_ acceptor: PlainInputAcceptor, _ bytes: [UInt8]) -> [Int: String]? {
        var values: [Int: String] = [:]
        let accepted = bytes.withUnsafeBufferPointer { acceptor.withValues(of: $0) { values[$0] = $1 } }
        return accepted ? values : nil
    }

    /// Checks one body both ways; returns whether the fast path took it.
    @discardableResult
    static func expectSameAnswer(_ bytes: [UInt8], _ contract: Contract) -> Bool {
        let acceptor = PlainInputAcceptor(contract)
        let fast = values(acceptor, bytes)
        let document = try? JSONReader.parse(bytes)
        let violations = document.map { contract.validate($0) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let fast else {
            if let document, violations == [], isPlain(bytes, document) {
                Issue.record("the fast path declined a plain valid body: \(text)")
            }
            return false
        }
        guard let document else {
            Issue.record("the fast path accepted what is not JSON: \(text)")
            return true
        }
        #expect(violations == [], "the fast path accepted a body with violations: \(text)")
        guard case .object(let object) = contract.schema.kind else {
            Issue.record("the fast path accepted a body for a contract that is not an object")
            return true
        }
        for (index, member) in object.members.enumerated() {
            #expect(acceptor.memberIndex(named: member.name) == index)
            #expect(fast[index] == string(document, member.name), "\(member.name) in \(text)")
        }
        return true
    }

    @Test(arguments: plainSeeds.indices)
    func plainValidBodiesTakeTheFastPathWithTheGeneralPathsValues(_ seed: Int) throws {
        let (name, body) = Self.plainSeeds[seed]
        let bytes = Array(body.utf8)
        #expect(Self.expectSameAnswer(bytes, Self.contract(name)), "not taken: \(body)")
        #expect(try Self.contract(name).validate(JSONReader.parse(bytes)) == [])
    }

    @Test(arguments: plainSeeds.indices)
    func everyOneByteMutationGetsTheGeneralPathsAnswer(_ seed: Int) {
        let (name, body) = Self.plainSeeds[seed]
        let contract = Self.contract(name)
        var taken = 0
        var declined = 0
        for mutation in Self.mutations(of: body) {
            if Self.expectSameAnswer(mutation, contract) { taken += 1 } else { declined += 1 }
        }
        // Both kinds occur, so neither direction of the comparison is vacuous.
        #expect(taken > 0)
        #expect(declined > 0)
    }

    @Test(arguments: oddBodies.indices)
    func oddBodiesGetTheGeneralPathsAnswer(_ index: Int) {
        let (name, body) = Self.oddBodies[index]
        Self.expectSameAnswer(Array(body.utf8), Self.contract(name))
    }

    @Test func aContractWithRulesIsNeverTakenOnTheFastPath() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let acceptor = PlainInputAcceptor(payload)
        #expect(Self.values(acceptor, Array(#"{"aps":{}}"#.utf8)) == nil)
        #expect(!acceptor.admits(pathParameter: "x"))
    }

    /// Path parameters: the acceptor admits exactly what the validator passes, which it
    /// walks on a document here (not `validate(pathParameter:)`, which asks the same check).
    @Test(arguments: ["device-token", "notification-id"])
    func pathParametersAreAdmittedExactlyWhenTheValidatorFindsNothing(_ name: String) throws {
        let contract = try #require(ContractSet.v1.contract(named: name))
        let acceptor = PlainInputAcceptor(contract)
        let seeds = ["00fa11ce" + String(repeating: "ab", count: 28), "ABCDEF", "ab", "n-91_x", String(repeating: "a", count: 64)]
        var candidates = ["", "a", "abc", "0g", "é1", "ab cd", String(repeating: "ab", count: 100), String(repeating: "ab", count: 101),
                          String(repeating: "a", count: 65), "ab\u{0}", "Ａb"]
        for seed in seeds {
            candidates.append(seed)
            for mutation in Self.mutations(of: seed) { candidates.append(String(decoding: mutation, as: UTF8.self)) }
        }
        var admitted = 0
        for candidate in candidates {
            let general = contract.validate(JSONNode(.string(candidate)))
            #expect(acceptor.admits(pathParameter: candidate) == general.isEmpty, "\(candidate.debugDescription)")
            #expect(contract.validate(pathParameter: candidate).isEmpty == general.isEmpty, "\(candidate.debugDescription)")
            if general.isEmpty { admitted += 1 }
        }
        #expect(admitted > 0 && admitted < candidates.count)
    }

    /// The formats checked on bytes (eight at a time) against their String matchers, as path
    /// parameters with and without length bounds, over edge and random strings: admitted
    /// exactly when the validator finds nothing.
    @Test(arguments: [StringFormat.hexBytes, .identifier, .semver, .base64, .base64P256PublicKey])
    func formatsCheckedOnBytesMatchTheirMatchers(_ format: StringFormat) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEFgzGZ+/=.-_ ,\u{7F}é\u{212A}") + ["\u{0}", "\u{1F}"]
        var candidates = ["", "=", "==", "A===", "AB==", "ABC=", "ABCD", "AB=C", "0.0.0", "01.0.0", "1.2", "1.2.3.4", "1..2",
                          "ab", "AB", "aB", "abc", "n-91_x", Self.publicKey, String(Self.publicKey.dropLast()), "é1",
                          String(repeating: "A", count: 86) + "==", String(repeating: "a", count: 64), "\u{212A}"]
        for _ in 0..<4000 {
            candidates.append(String((0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for seed in [Self.publicKey, "4.2.0", "00fa11ce" + String(repeating: "ab", count: 28)] {
            for mutation in Self.mutations(of: seed) { candidates.append(String(decoding: mutation, as: UTF8.self)) }
        }
        for (minLength, maxLength) in [(nil, nil), (2, 8), (1, 200)] as [(Int?, Int?)] {
            let contract = Contract(name: "p", direction: .appToBackend, summary: "A test parameter.",
                                    schema: .string(minLength: minLength, maxLength: maxLength, format: format), pathParameter: "p")
            let acceptor = PlainInputAcceptor(contract)
            for candidate in candidates {
                let general = contract.validate(JSONNode(.string(candidate)))
                #expect(acceptor.admits(pathParameter: candidate) == general.isEmpty, "\(format.name) \(candidate.debugDescription)")
                // Without bounds, the byte check is the matcher itself.
                if minLength == nil {
                    var bytes = candidate
                    #expect(bytes.withUTF8 { acceptor.admits(pathParameterBytes: $0) } == format.matches(candidate),
                            "\(format.name) \(candidate.debugDescription)")
                }
            }
        }
    }

    /// A count of hex digits answers as the digits themselves do, for a `hex-bytes` parameter
    /// with or without bounds; any other schema leaves the answer to the bytes (nil).
    @Test func aHexDigitCountAnswersAsTheDigits() {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdefABCDEF")
        let schemas: [(Schema, Bool)] = [
            (.string(format: .hexBytes), true), (.string(minLength: 64, maxLength: 200, format: .hexBytes), true),
            (.string(minLength: 3, maxLength: 9, format: .hexBytes), true), (.string(maxLength: 1, format: .hexBytes), true),
            (.string(format: .identifier), false), (.string(minLength: 2), false), (.string(format: .base64), false),
        ]
        for (schema, answersFromCount) in schemas {
            let contract = Contract(name: "p", direction: .appToBackend, summary: "A test parameter.", schema: schema, pathParameter: "p")
            let acceptor = PlainInputAcceptor(contract)
            for count in 0...210 {
                var text = String((0..<count).map { _ in digits.randomElement(using: &generator) ?? "0" })
                let fromBytes = text.withUTF8 { acceptor.admits(pathParameterBytes: $0) }
                let fromCount = acceptor.admits(hexDigitCount: count)
                #expect((fromCount != nil) == answersFromCount, "\(schema) \(count)")
                #expect((fromCount ?? fromBytes) == fromBytes, "\(schema) \(count)")
                #expect(fromBytes == contract.validate(JSONNode(.string(text))).isEmpty, "\(schema) \(count)")
            }
        }
    }

    /// The word-at-a-time helpers against the byte-at-a-time ones, at every length and
    /// alignment up to a few words.
    @Test func wordHelpersMatchTheByteHelpers() {
        var generator = SystemRandomNumberGenerator()
        let interesting: [UInt8] = Array("09afAFgG+/=\"\\ az".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x2C, 0x2E, 0x40, 0x5B, 0x60, 0x7B]
        for _ in 0..<20000 {
            let count = Int.random(in: 0...56, using: &generator)
            var bytes = (0..<count).map { _ in interesting.randomElement(using: &generator)! }
            // Mostly valid runs too, so the all-valid answers are exercised.
            if Bool.random(using: &generator) { bytes = bytes.map { FormatMatchers.hexBit($0) == 1 ? $0 : UInt8(ascii: "a") } }
            if Bool.random(using: &generator) { bytes = bytes.map { FormatMatchers.base64Bit($0) == 1 || $0 == 0x3D ? $0 : UInt8(ascii: "Q") } }
            let other = Bool.random(using: &generator) ? bytes : bytes.map { Bool.random(using: &generator) ? $0 : $0 ^ 0x20 }
            bytes.withUnsafeBufferPointer { buffer in
                other.withUnsafeBufferPointer { otherBuffer in
                    #expect(SWAR.allHexDigits(buffer) == ByteReference.allHexDigits(buffer), "\(bytes)")
                    #expect(SWAR.isPlainBase64(buffer) == ByteReference.isPlainBase64(buffer), "\(bytes)")
                    #expect(SWAR.isASCII(buffer) == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
                    #expect(SWAR.isLowercaseASCII(buffer) == bytes.allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }, "\(bytes)")
                    #expect(SWAR.equal(buffer, otherBuffer) == (bytes == other), "\(bytes) \(other)")
                    var offset = 0
                    while buffer.count - offset >= 8 {
                        let first = SWAR.firstSpecial(SWAR.load(buffer.baseAddress!, offset))
                        let expected = buffer[offset..<(offset + 8)].firstIndex {
                            $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80
                        }.map { $0 - offset } ?? 8
                        #expect(first == expected, "\(bytes) at \(offset)")
                        offset += 1
                    }
                    // Sixteen lanes at a time, and the parser's scan (16-byte blocks, then words).
                    let special = { (byte: UInt8) in byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 }
                    offset = 0
                    while buffer.count - offset >= 16 {
                        let first = SWAR.firstSpecial16(SWAR.load16(buffer.baseAddress!, offset))
                        let expected = buffer[offset..<(offset + 16)].firstIndex(where: special).map { $0 - offset } ?? 16
                        #expect(first == expected, "\(bytes) at \(offset) (16 lanes)")
                        offset += 1
                    }
                    let scanned = buffer.count / 8 * 8
                    #expect(JSONParser.endOfPlainASCII(buffer, from: 0) == min(bytes.firstIndex(where: special) ?? scanned, scanned), "\(bytes)")
                }
            }
        }
    }
}

/// The hex and base64 checks a byte at a time, as the format matchers had them before
/// ``SWAR`` took their place: the reference the word-at-a-time versions are held to.
private enum ByteReference {
    static func allHexDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var valid: UInt8 = 1
        for byte in bytes { valid &= FormatMatchers.hexBit(byte) }
        return valid == 1
    }

    static func isPlainBase64(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count % 4 == 0 else { return false }
        guard count > 0 else { return true }
        var valid: UInt8 = 1
        for byte in UnsafeBufferPointer(rebasing: bytes[..<(count - 2)]) { valid &= FormatMatchers.base64Bit(byte) }
        let last = bytes[count - 1]
        let secondLast = bytes[count - 2]
        if last == 0x3D {
            return valid == 1 && (secondLast == 0x3D || FormatMatchers.base64Bit(secondLast) == 1)
        }
        return valid == 1 && FormatMatchers.base64Bit(secondLast) == 1 && FormatMatchers.base64Bit(last) == 1
    }
}
