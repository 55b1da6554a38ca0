import Contracts
import Foundation

/// A Live Activity type a test declared to FakeAPNs (``FakeAPNs/declareLiveActivity(_:)``, or
/// implicitly by a generic call such as ``FakeAPNs/startLiveActivity(device:attributes:contentState:pushToken:staleDate:timestamp:)``),
/// with its type erased: its `attributes-type` and how a device decodes its `attributes` and
/// `content-state`, with a default `JSONDecoder` as ActivityKit does.
struct DeclaredActivityType: Sendable {
    var name: String
    /// Its payload contract (`live-activity-payload`, with this type's schema), which checks
    /// every push to its activities and every start naming it.
    var contract: Contract
    var decodeAttributes: @Sendable (_ json: [UInt8]) -> Result<DeclaredValue, LiveActivityStore.Unapplied>
    var decodeContentState: @Sendable (_ json: [UInt8]) -> Result<DeclaredValue, LiveActivityStore.Unapplied>
    /// `LiveActivityAttributes/journalDescription` of decoded attributes.
    var describeAttributes: @Sendable (DeclaredValue) -> String
    /// `LiveActivityAttributes/journalDescription(of:)` of a decoded state.
    var describeContentState: @Sendable (DeclaredValue) -> String

    init<Attributes: LiveActivityAttributes>(_: Attributes.Type) {
        let name = Attributes.attributesType
        self.name = name
        contract = Contract.liveActivityPayload(for: Attributes.self, name: "live-activity-payload")
        decodeAttributes = { json in
            Self.decode(Attributes.self, json, member: "aps.attributes", into: name)
        }
        decodeContentState = { json in
            Self.decode(Attributes.ContentState.self, json, member: "aps.content-state", into: name + ".ContentState")
        }
        describeAttributes = { ($0.value as? Attributes)?.journalDescription ?? name }
        describeContentState = { value in
            (value.value as? Attributes.ContentState).map { Attributes.journalDescription(of: $0) } ?? "a state"
        }
    }

    /// `json` decoded as ActivityKit does, or the decoder's own words: which member, what it expected.
    private static func decode<Value: Codable & Sendable>(_: Value.Type, _ json: [UInt8], member: String,
                                                          into typeName: String) -> Result<DeclaredValue, LiveActivityStore.Unapplied> {
        do {
            return .success(DeclaredValue(value: try JSONDecoder().decode(Value.self, from: Data(json))))
        } catch {
            let what = member == "aps.attributes" ? "attributes" : "content-state"
            return .failure(.init(message: "\(what) does not decode into \(typeName): \(LiveActivityPush.describe(error, in: member))"))
        }
    }
}

/// A decoded attributes or content-state value of a declared type, its type erased; the
/// admin API encodes it as the app's type encodes (dates as every admin time).
struct DeclaredValue: Sendable, Encodable {
    var value: any Encodable & Sendable

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension JSONValue {
    /// The value as JSON text, numbers exactly as they were written: what a device's decoder
    /// reads for one member of a push.
    var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        Self.write(self, to: &out)
        return out
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .number(let number): out += Array(number.literal.utf8)
        case .string(let text): writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element.value, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// A Live Activity as the store keeps it, of any declared type: ``LiveActivityOf`` with its
/// attributes and content state type-erased (one device shows several types side by side).
struct StoredLiveActivity: Sendable {
    var pushToken: String
    var deviceToken: String
    var attributesType: String
    var attributes: DeclaredValue
    var contentState: DeclaredValue
    var state: LiveActivityState
    var changedAt: Int64
    var startedAt: Int64
    var endedAt: Int64?
    var staleAt: Int64?
    var dismissalAt: Int64?
    var timestamp: Int64
    var relevanceScore: Double?
    var pushesApplied: Int
}

extension StoredLiveActivity {
    /// A typed snapshot kept type-erased.
    init<Attributes>(_ activity: LiveActivityOf<Attributes>) {
        self.init(pushToken: activity.pushToken, deviceToken: activity.deviceToken, attributesType: Attributes.attributesType,
                  attributes: DeclaredValue(value: activity.attributes), contentState: DeclaredValue(value: activity.contentState),
                  state: activity.state, changedAt: activity.changedAt, startedAt: activity.startedAt, endedAt: activity.endedAt,
                  staleAt: activity.staleAt, dismissalAt: activity.dismissalAt, timestamp: activity.timestamp,
                  relevanceScore: activity.relevanceScore, pushesApplied: activity.pushesApplied)
    }
}

/// Where a stored activity's snapshots go as they change: one ``FakeAPNs/liveActivityStates(pushToken:as:)`` stream.
struct LiveActivitySink: Sendable {
    var yield: @Sendable (StoredLiveActivity) -> Void
    var finish: @Sendable () -> Void
}
