@testable import PushCore
import Testing
@testable import LoopbackHTTP

/// `validateRegularField` answers most fields from a fast byte scan and sends the rest to
/// the full checks: both must give the same verdict and the same error for every field.
@Suite struct HTTP2FieldValidationTests {
    static func verdict(_ body: () throws(HTTP2ProtocolError) -> Void) -> HTTP2ProtocolError? {
        do throws(HTTP2ProtocolError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func agree(_ name: String, _ value: String) -> Bool {
        let field = HPACKDecoder.Field(name: name, value: value)
        let fast = verdict { () throws(HTTP2ProtocolError) in try HTTP2Connection.validateRegularField(field, stream: 1) }
        let full = verdict { () throws(HTTP2ProtocolError) in try HTTP2Connection.validateRegularFieldSlowly(field, stream: 1) }
        return fast == full
    }

    static let fixtures: [(String, String, Bool)] = [
        ("accept", "*/*", true), ("apns-topic", "com.example.app", true), ("te", "trailers", true),
        ("te", "gzip", false), ("connection", "close", false), ("keep-alive", "5", false),
        ("proxy-connection", "x", false), ("transfer-encoding", "chunked", false), ("upgrade", "h2c", false),
        ("X-Upper", "1", false), ("", "x", false), ("bad name", "x", false), ("x", "a\u{0}b", false),
        ("x", "a\rb", false), ("x", "a\nb", false), ("x", "tab\tand é", true), ("connectionx", "1", true),
        ("upgradE", "1", false), ("x-é", "1", false),
    ]

    @Test(arguments: fixtures)
    func fixture(_ name: String, _ value: String, _ valid: Bool) {
        let field = HPACKDecoder.Field(name: name, value: value)
        #expect((Self.verdict { () throws(HTTP2ProtocolError) in try HTTP2Connection.validateRegularField(field, stream: 1) } == nil) == valid)
        #expect(Self.agree(name, value))
    }

    /// Seeded random names and values over an alphabet that reaches every branch.
    @Test func randomFieldsGetTheFullChecksVerdict() {
        var generator = SplitMix64(seed: 12)
        let names = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "apns-id"]
        let alphabet: [UInt8] = Array("ab-:TE\0\r\n é!~".utf8)
        for _ in 0..<5_000 {
            var name = names[Int(generator.next() % UInt64(names.count))]
            if generator.next() % 2 == 0 {
                let count = Int(generator.next() % 6)
                name = String(decoding: (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            }
            let count = Int(generator.next() % 10)
            let value = generator.next() % 3 == 0 ? "trailers"
                : String(decoding: (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
            #expect(Self.agree(name, value), "\(name): \(value)")
        }
    }

    /// The word-at-a-time scan for NUL, CR and LF against a byte loop, on values long enough
    /// for whole words (a provider token is ~250 bytes): the byte anywhere, near-misses
    /// (tab, 0x0E, bytes past 0x7F) and none.
    @Test func theWordScanFindsNulCROrLFWhereverItIs() {
        var generator = SplitMix64(seed: 41)
        let alphabet: [UInt8] = [0x00, 0x0a, 0x0d, 0x09, 0x0b, 0x0c, 0x0e, 0x01, 0x7f, 0x80, 0x8d, 0xff, 0x41, 0x2e]
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 300)
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            for _ in 0..<Int(generator.next() % 3) where count > 0 {
                bytes[Int(generator.next() % UInt64(count))] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }
            let expected = bytes.contains { $0 == 0 || $0 == 0x0a || $0 == 0x0d }
            #expect(bytes.withUnsafeBufferPointer(HTTP2Connection.holdsNulCROrLF) == expected, "\(bytes)")
        }
    }
}
