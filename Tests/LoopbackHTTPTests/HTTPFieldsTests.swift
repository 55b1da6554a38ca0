import Testing
@testable import LoopbackHTTP

/// Equality and hashing agree with lookup: names are case-insensitive, values and order are not.
@Suite struct HTTPFieldsTests {
    @Test func namesInAnotherCaseAreEqualAndHashAlike() {
        let written: HTTPFields = ["Content-Type": "application/json", "APNS-ID": "A"]
        let lowered: HTTPFields = ["content-type": "application/json", "apns-id": "A"]
        #expect(written["content-type"] == lowered["Content-Type"])
        #expect(written == lowered)
        #expect(written.hashValue == lowered.hashValue)
        #expect(Set([written, lowered]).count == 1)
    }

    @Test func valuesAndOrderStillCount() {
        let fields: HTTPFields = ["a": "1", "b": "2"]
        #expect(fields != ["A": "x", "B": "2"])
        #expect(fields != ["b": "2", "a": "1"])
        #expect(fields != ["a": "1"])
        #expect(HTTPFields.Field(name: "X-Y", value: "v") == HTTPFields.Field(name: "x-y", value: "v"))
        #expect(HTTPFields.Field(name: "X-Y", value: "V") != HTTPFields.Field(name: "x-y", value: "v"))
    }
}

/// Fields appended as bytes (how the HTTP/1.1 parser stores a head, one buffer and no
/// String per field) answer exactly as fields given as Strings: lookup, iteration, equality
/// and hash, and edits keep their order.
@Suite struct HTTPFieldsBytesTests {
    static func packed(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            var name = name, value = value
            name.withUTF8 { name in value.withUTF8 { value in fields.appendBytes(name: name, value: value) } }
        }
        return fields
    }

    static let pairs = [("Host", "127.0.0.1:8080"), ("Content-Type", "application/json"), ("X-Dup", "1"), ("x-dup", "2"), ("Empty", "")]

    @Test func bytesAnswerLikeStrings() {
        let bytes = Self.packed(Self.pairs)
        let strings = HTTPFields(Self.pairs.map { HTTPFields.Field(name: $0.0, value: $0.1) })
        #expect(bytes.count == 5 && !bytes.isEmpty)
        #expect(bytes["content-type"] == "application/json")
        #expect(bytes["HOST"] == "127.0.0.1:8080")
        #expect(bytes["empty"] == "")
        #expect(bytes["missing"] == nil)
        #expect(bytes.values(for: "X-DUP") == ["1", "2"])
        #expect(bytes.map { [$0.name, $0.value] } == Self.pairs.map { [$0.0, $0.1] })
        #expect(bytes == strings && strings == bytes)
        #expect(bytes.hashValue == strings.hashValue)
        #expect(bytes.fields == strings.fields)
        #expect(bytes != Self.packed(Array(Self.pairs.dropLast())))
        #expect(bytes != Self.packed(Self.pairs.map { ($0.0, $0.1 + "!") }))
    }

    @Test func firstValuesAreReadAsBytesInEitherForm() {
        for fields in [Self.packed(Self.pairs), HTTPFields(Self.pairs.map { HTTPFields.Field(name: $0.0, value: $0.1) })] {
            func first(_ name: StaticString) -> String? {
                // Asked in both places of the pair, so each answers for itself.
                let asFirst = fields.withFirstValues(of: name, "Missing") { value, missing in
                    missing == nil ? value.map { String(decoding: $0, as: UTF8.self) } : "(Missing found)"
                }
                let asSecond = fields.withFirstValues(of: "Missing", name) { missing, value in
                    missing == nil ? value.map { String(decoding: $0, as: UTF8.self) } : "(Missing found)"
                }
                #expect(asFirst == asSecond, "\(name)")
                return asFirst
            }
            #expect(first("content-type") == "application/json")
            #expect(first("Content-Type") != "application/JSON")
            #expect(first("Content-Type") != "application/json; charset=utf-8")
            #expect(first("x-dup") == "1" && first("X-Dup") != "2")  // the first only
            #expect(first("Empty") == "")
            #expect(first("Missing") == nil)
        }
    }

    @Test func editsKeepOrderInEitherForm() {
        var bytes = Self.packed(Self.pairs)
        bytes["x-dup"] = "3"
        bytes.append(name: "Last", value: "L")
        #expect(bytes.map(\.name) == ["Host", "Content-Type", "Empty", "x-dup", "Last"])
        #expect(bytes.values(for: "X-Dup") == ["3"])
        bytes["Host"] = nil
        #expect(bytes["host"] == nil && bytes.count == 4)

        var strings: HTTPFields = ["a": "1"]
        "b".utf8.withContiguousStorageIfAvailable { name in
            "2".utf8.withContiguousStorageIfAvailable { value in strings.appendBytes(name: name, value: value) }
        }
        #expect(strings.map { [$0.name, $0.value] } == [["a", "1"], ["b", "2"]])
        #expect(strings == ["A": "1", "B": "2"])
    }

    @Test func aParsedHeadReadsBackByteForByte() throws {
        let head = try HTTP1RequestHead.parse(Array("PUT /d HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n\r\n".utf8)[...],
                                              maxBodyBytes: 100)
        var raw: [String] = []
        head.headers.forEachFieldBytes { name, value in
            raw.append(String(decoding: name, as: UTF8.self) + "=" + String(decoding: value, as: UTF8.self))
        }
        #expect(raw == ["Host=h", "Content-Type=application/json"])
        #expect(head.headers == ["host": "h", "content-type": "application/json"])
    }
}

/// The token set the HTTP/1.1 parser checks names and methods with is RFC 9110's tchar.
@Suite struct TokenByteTests {
    @Test func tokenBytesAreExactlyTchar() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }
}
