import Contracts
import Testing

/// `payload.size` at its boundary: APNs takes at most 4096 bytes as sent (5120 for VoIP), so a
/// payload of exactly the limit passes and one byte more is reported, measured on the bytes as
/// sent and, without them, on the compact form.
@Suite struct PayloadSizeRuleTests {
    static let payload = ContractSet.v1.contract(named: "payload")

    /// A valid OFFER payload padded with spaces before its closing brace to `size` bytes.
    static func document(size: Int) -> [UInt8] {
        let body = #"{"aps":{"alert":{"title":"Offer","body":"Two for one"},"category":"OFFER"},"notificationId":"91","route":"offers/12"}"#
        return Array(body.dropLast().utf8) + [UInt8](repeating: 0x20, count: size - body.utf8.count) + [UInt8(ascii: "}")]
    }

    static func sizeFindings(_ bytes: [UInt8], limit: Int = ValidationOptions.standardPayloadLimit) -> [Violation] {
        (payload?.validate(bytes: bytes, maximumPayloadBytes: limit) ?? []).filter { $0.ruleID == "payload.size" }
    }

    @Test(arguments: [ValidationOptions.standardPayloadLimit, ValidationOptions.voipPayloadLimit])
    func exactlyTheLimitPassesAndOneByteMoreIsReported(_ limit: Int) throws {
        #expect(Self.payload?.validate(bytes: Self.document(size: 200)).isEmpty == true, "the base payload is valid")
        #expect(Self.sizeFindings(Self.document(size: limit), limit: limit).isEmpty)
        let over = Self.sizeFindings(Self.document(size: limit + 1), limit: limit)
        #expect(over.count == 1)
        let message = try #require(over.first?.message)
        #expect(message.contains("expected at most \(limit) bytes, found \(limit + 1)"), "\(message)")
        #expect(message.contains("without whitespace"), "the padding is whitespace: compact it fits")
    }

    @Test func theCompactFormIsMeasuredWithoutTheBytesAsSent() throws {
        let document = try JSONReader.parse(Self.document(size: 5000))
        #expect(Self.payload?.validate(document, sourceByteCount: nil).contains { $0.ruleID == "payload.size" } == false)
        #expect(Self.payload?.validate(document, sourceByteCount: 5000).contains { $0.ruleID == "payload.size" } == true)
    }
}
