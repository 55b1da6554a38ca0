import Contracts
import Foundation
import Testing

/// A Live Activity push as a sender builds it, around the tracker's own types: what the
/// model round trip of the fixtures decodes into, and what these tests encode.
struct LiveActivityPush: Codable {
    struct Alert: Codable {
        var title: Text?
        var body: Text?
        var sound: String?
    }

    /// A title or body: plain text, or a localization key and its arguments.
    enum Text: Codable, ExpressibleByStringLiteral {
        case plain(String)
        case localized(Localized)

        struct Localized: Codable {
            var key: String
            var arguments: [String]?

            enum CodingKeys: String, CodingKey {
                case key = "loc-key", arguments = "loc-args"
            }
        }

        init(stringLiteral value: String) { self = .plain(value) }

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .plain(text)
            } else {
                self = .localized(try Localized(from: decoder))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .plain(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .localized(let localized):
                try localized.encode(to: encoder)
            }
        }
    }

    struct APS: Codable {
        var timestamp: Int64
        var event: String
        var contentState: OrderTrackerAttributes.ContentState?
        var alert: Alert?
        var attributesType: String?
        var attributes: OrderTrackerAttributes?
        var staleDate: Int64?
        var dismissalDate: Int64?
        var relevanceScore: Double?
        var inputPushToken: Int?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert, attributes
            case contentState = "content-state", attributesType = "attributes-type", staleDate = "stale-date"
            case dismissalDate = "dismissal-date", relevanceScore = "relevance-score", inputPushToken = "input-push-token"
        }
    }

    var aps: APS
}

@Suite struct LiveActivityModelTests {
    static let contract = ContractSet.v1.contract(named: "live-activity-payload")
    /// 2026-01-01T00:30:00Z: Unix 1,767,227,400; seconds since 2001, 788,920,200.
    static let eta = Date(timeIntervalSince1970: 1_767_227_400)

    static func update(_ state: OrderTrackerAttributes.ContentState, encoder: JSONEncoder = JSONEncoder()) throws -> [UInt8] {
        let push = LiveActivityPush(aps: .init(timestamp: 1_767_225_600, event: "update", contentState: state))
        return Array(try encoder.encode(push))
    }

    @Test func aStateEncodedWithJSONEncoderPassesAndDecodesAsActivityKitReadsIt() throws {
        let contract = try #require(Self.contract)
        let state = OrderTrackerAttributes.ContentState(stage: .onTheWay, eta: Self.eta, itemsPicked: 12, itemsTotal: 12)
        let bytes = try Self.update(state)
        #expect(contract.validate(bytes: bytes).isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        // The default strategy writes seconds since 2001, the number ActivityKit's decoder reads.
        let encoded = try JSONEncoder().encode(state)
        let eta = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])["eta"] as? Double
        #expect(eta == 788_920_200)
        #expect(try JSONDecoder().decode(OrderTrackerAttributes.ContentState.self, from: encoded) == state)
    }

    @Test func aUnixTimeDateIsCaughtWithItsConversion() throws {
        let contract = try #require(Self.contract)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let state = OrderTrackerAttributes.ContentState(stage: .arriving, eta: Self.eta)
        let violations = contract.validate(bytes: try Self.update(state, encoder: encoder))
        #expect(violations.map(\.ruleID) == ["live-activity-payload.date-since-2001"])
        #expect(violations.map(\.pointer) == ["/aps/content-state/eta"])
        #expect(violations.first?.message.contains("found 1767227400, which is Unix time — send 788920200 (subtract 978,307,200)") == true,
                "\(violations)")
    }

    @Test func aMillisecondsDateIsCaughtWithItsConversion() throws {
        let contract = try #require(Self.contract)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let violations = contract.validate(bytes: try Self.update(.init(stage: .arriving, eta: Self.eta), encoder: encoder))
        #expect(violations.map(\.ruleID) == ["live-activity-payload.date-since-2001"])
        #expect(violations.first?.message.contains(
            "found 1767227400000, which is Unix time in milliseconds — send 788920200 (divide by 1,000, then subtract 978,307,200)") == true,
                "\(violations)")
    }

    @Test func aStartPushBuiltFromTheModelsPasses() throws {
        let contract = try #require(Self.contract)
        let push = LiveActivityPush(aps: .init(
            timestamp: 1_767_225_600, event: "start",
            contentState: .init(stage: .confirmed, eta: Self.eta, itemsPicked: 0, itemsTotal: 12),
            alert: .init(title: "Order confirmed", body: "Arriving at 00:30"),
            attributesType: OrderTrackerAttributes.typeName, attributes: OrderTrackerAttributes(orderId: "8F3K"),
            inputPushToken: 1))
        let bytes = Array(try JSONEncoder().encode(push))
        #expect(contract.validate(bytes: bytes).isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        // The same push for an order id that is not one is caught.
        var wrong = push
        wrong.aps.attributes = OrderTrackerAttributes(orderId: "orders/8F3K")
        #expect(contract.validate(bytes: Array(try JSONEncoder().encode(wrong))).map(\.ruleID) == ["live-activity-payload.order-id"])
    }

    @Test func everyStageTheAppDecodesIsOneTheContractAccepts() throws {
        let contract = try #require(Self.contract)
        for stage in OrderTrackerAttributes.ContentState.Stage.allCases {
            #expect(contract.validate(bytes: try Self.update(.init(stage: stage))).isEmpty, "\(stage)")
        }
    }
}
