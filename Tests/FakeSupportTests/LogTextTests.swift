@testable import FakeSupport
@testable import PushCore
import Testing

/// `LogText` builds every live-log line on the request path from bytes; these pin it to the
/// plain `Character` version it replaced (kept below as the reference) and to examples.
@Suite struct LogTextTests {
    @Test func examples() {
        #expect(LogText.path("/v1/devices/00FA11CEABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB")
                == "/v1/devices/00fa11ce…abab")
        #expect(LogText.path("/3/device/0123456789abcdef01234567?x=ABCDEF0123456789ABCDEF") == "/3/device/01234567…4567?x=ABCDEF0123456789ABCDEF")
        #expect(LogText.path("/v1/devices/ABCDEF0123456789ABCD") == "/v1/devices/abcdef0123456789abcd")  // 20: lowercased, kept
        #expect(LogText.path("/v1/devices/0123456789abcdefghij") == "/v1/devices/0123456789abcdefghij")  // not hex
        #expect(LogText.path("") == "")
        #expect(LogText.path(String(repeating: "a/", count: 100)) == String(repeating: "a/", count: 80) + "…")
        #expect(LogText.token("0A1B2C3D4E5F60718293A4B5C6D7E8F9") == "0a1b2c3d…e8f9")
        #expect(LogText.token("ÉCOLE") == "école")
    }

    /// A device path whose token the handler checked is written as the scan writes it, at
    /// every length and case, in room enough or not.
    @Test func aPathWithItsHexKnownIsWrittenAsTheScanWritesIt() {
        var random = SplitMix64(seed: 41)
        let digits = Array("0123456789abcdefABCDEF")
        for count in Array(0...70) + Array(repeating: 64, count: 200) + [157, 158, 159, 200] {
            let token = String((0..<count).map { _ in digits[Int.random(in: 0..<digits.count, using: &random)] })
            let target = "/v1/devices/" + token
            for capacity in [0, 16, 40, 300] {
                var scanned: [UInt8] = [], known: [UInt8] = []
                LineCursor.append(to: &scanned, capacity: capacity) { $0.write(method: "PUT", path: target, status: 204) }
                LineCursor.append(to: &known, capacity: capacity) { $0.write(method: "PUT", path: target, hexFrom: 12, status: 204) }
                #expect(known == scanned, "\(target) in \(capacity)")
            }
        }
    }

    @Test func decimalsAsStringWritesThem() {
        var random = SplitMix64(seed: 3)
        for value in [0, 9, 10, 99, 100, 999, 1000, -1, 204, Int.max, Int.min] + (0..<500).map({ _ in Int(bitPattern: UInt(random.next())) }) {
            var line = Array("x=".utf8)
            LogText.appendDecimal(value, to: &line)
            #expect(String(decoding: line, as: UTF8.self) == "x=\(value)")
        }
    }

    /// A line written in less room than it needs is written again in enough: whole, once.
    @Test func aLineMeasuredShortIsWrittenWhole() {
        let targets = ["/v1/devices/" + String(repeating: "AB", count: 40), "/" + String(repeating: "é/", count: 100)]
        for target in targets {
            for capacity in [0, 1, 20, 90, 170, 400] {
                var line = Array("> ".utf8)
                LineCursor.append(to: &line, capacity: capacity) { $0.write(method: "PUT", path: target, status: 204) }
                #expect(String(decoding: line, as: UTF8.self) == "> PUT \(Self.referencePath(target)) 204", "capacity \(capacity)")
            }
        }
    }

    @Test func agreesWithTheCharacterVersionOnRandomTargets() {
        var random = SplitMix64(seed: 12)
        let pieces = ["/", "/", "?", "a", "F", "0", "9", "g", "é", "🚀", "%2F", "00fa11ceabababababab", "ABABABABABABABABABAB", "&x="]
        for _ in 0..<5_000 {
            var target = ""
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
                target += Bool.random(using: &random) ? piece : String(repeating: piece, count: Int.random(in: 1...30, using: &random))
            }
            #expect(LogText.path(target) == Self.referencePath(target), "\(target)")
        }
    }

    /// The version before the byte walk (ASCII hex only: `Character.isHexDigit` also takes
    /// fullwidth digits, which no request target carries).
    static func referencePath(_ target: String) -> String {
        func token(_ token: Substring) -> String {
            let lower = token.lowercased()
            return lower.count > 20 ? "\(lower.prefix(8))…\(lower.suffix(4))" : lower
        }
        let query = target.firstIndex(of: "?")
        let path = target[..<(query ?? target.endIndex)]
        var shown = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            segment.count >= 20 && segment.allSatisfy({ $0.isASCII && $0.isHexDigit }) ? token(segment) : String(segment)
        }.joined(separator: "/")
        if let query { shown += target[query...] }
        return shown.count > 160 ? String(shown.prefix(160)) + "…" : shown
    }
}
