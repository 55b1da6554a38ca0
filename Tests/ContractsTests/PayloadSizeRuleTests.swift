import Contracts
import Testing

/// `payload.size` at its boundary: APNs takes at most 4096 bytes as sent (5120 for VoIP), so a
/// payload of exactly the limit passes and one byte more is reported, measured on the bytes as
/// sent and, without them, on the compact form. A document that breaks no rule is answered by
/// the payload's one-walk fast path, so each boundary is also checked on a document with
/// another finding, where the size rule itself runs.
@Suite struct PayloadSizeRuleTests {
    static let payload = ContractSet.v1.contract(named: "payload")

    /// An OFFER payload of exactly `size` bytes, compact, its alert body padded with 'x';
    /// with `badge: -1` (a `payload.range` finding) when `withAnotherFinding`.
    static func compact(size: Int, withAnotherFinding: Bool = false) -> [UInt8] {
        let badge = withAnotherFinding ? #","badge":-1"# : ""
        let frame = #"{"aps":{"alert":{"title":"Offer","body":"BODY"},"category":"OFFER"\#(badge)},"notificationId":"91","route":"offers/12"}"#
        let padding = String(repeating: "x", count: size - (frame.utf8.count - 4))
        return Array(frame.replacingOccurrences(of: "BODY", with: padding).utf8)
    }

    /// A valid OFFER payload padded with spaces before its closing brace to `size` bytes.
    static func padded(size: Int) -> [UInt8] {
        let body = #"{"aps":{"alert":{"title":"Offer","body":"Two for one"},"category":"OFFER"},"notificationId":"91","route":"offers/12"}"#
        return Array(body.dropLast().utf8) + [UInt8](repeating: 0x20, count: size - body.utf8.count) + [UInt8(ascii: "}")]
    }

    static func ruleIDs(_ bytes: [UInt8], limit: Int) -> [String] {
        (payload?.validate(bytes: bytes, maximumPayloadBytes: limit) ?? []).map(\.ruleID)
    }

    @Test(arguments: [ValidationOptions.standardPayloadLimit, ValidationOptions.voipPayloadLimit])
    func exactlyTheLimitPassesAndOneByteMoreIsReported(_ limit: Int) throws {
        #expect(Self.compact(size: limit).count == limit && Self.padded(size: limit).count == limit)
        #expect(Self.ruleIDs(Self.compact(size: limit), limit: limit).isEmpty)
        #expect(Self.ruleIDs(Self.compact(size: limit + 1), limit: limit) == ["payload.size"])
        // With another finding the rules run one by one: still no size finding at the limit.
        #expect(Self.ruleIDs(Self.compact(size: limit, withAnotherFinding: true), limit: limit) == ["payload.range"])
        #expect(Self.ruleIDs(Self.compact(size: limit + 1, withAnotherFinding: true), limit: limit).sorted() == ["payload.range", "payload.size"])
        let over = (Self.payload?.validate(bytes: Self.padded(size: limit + 1), maximumPayloadBytes: limit) ?? [])
        #expect(over.map(\.ruleID) == ["payload.size"])
        let message = try #require(over.first?.message)
        #expect(message.contains("expected at most \(limit) bytes, found \(limit + 1)"), "\(message)")
        #expect(message.contains("without whitespace"), "the padding is whitespace: compact it fits")
    }

    /// Without the bytes as sent (a parsed document), the compact form is measured.
    @Test func theCompactFormIsMeasuredWhenNoSizeIsGiven() throws {
        let limit = ValidationOptions.standardPayloadLimit
        let atLimit = try JSONReader.parse(Self.padded(size: limit + 500))
        #expect(Self.payload?.validate(atLimit, sourceByteCount: nil).contains { $0.ruleID == "payload.size" } == false)
        #expect(Self.payload?.validate(atLimit, sourceByteCount: limit + 500).contains { $0.ruleID == "payload.size" } == true)
        let exact = try JSONReader.parse(Self.compact(size: limit))
        #expect(Self.payload?.validate(exact, sourceByteCount: nil).isEmpty == true)
        let over = try JSONReader.parse(Self.compact(size: limit + 1))
        #expect(Self.payload?.validate(over, sourceByteCount: nil).map(\.ruleID) == ["payload.size"])
    }
}
