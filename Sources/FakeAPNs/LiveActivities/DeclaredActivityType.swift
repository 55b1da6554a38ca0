import Contracts
import Foundation

/// A Live Activity type a test declared to FakeAPNs (``FakeAPNs/declareLiveActivity(_:)``, or
/// implicitly by a generic call such as ``FakeAPNs/startLiveActivity(device:attributes:contentState:pushToken:staleDate:timestamp:)``),
/// with its type erased: its `attributes-type` and how a device decodes its `attributes` and
/// `content-state`, with a default `JSONDecoder` as ActivityKit does.
struct DeclaredActivityType: Sendable {
    var name: String
    /// The Swift type, to tell a repeated declaration from another type of the same name.
    var type: ObjectIdentifier
    /// Its payload contract (`live-activity-payload`, with this type's schema), which checks
    /// every push to its activities and every start naming it.
    var contract: SharedContract
    /// The member as parsed, read by ``ParsedValueDecoder`` when it can tell, else written
    /// out as JSON text for the decoder.
    var decodeAttributes: @Sendable (_ parsed: JSONValue) -> Result<DeclaredValue, LiveActivityStore.Unapplied>
    var decodeContentState: @Sendable (_ parsed: JSONValue) -> Result<DeclaredValue, LiveActivityStore.Unapplied>
    /// `LiveActivityAttributes/journalDescription` of decoded attributes.
    var describeAttributes: @Sendable (DeclaredValue) -> String
    /// `LiveActivityAttributes/journalDescription(of:)` of a decoded state.
    var describeContentState: @Sendable (DeclaredValue) -> String

    init<Attributes: LiveActivityAttributes>(_: Attributes.Type) {
        let name = Attributes.attributesType
        self.name = name
        type = ObjectIdentifier(Attributes.self)
        contract = SharedContract(Contract.liveActivityPayload(for: Attributes.self, name: "live-activity-payload"))
        decodeAttributes = { parsed in
            Self.decode(Attributes.self, parsed, member: "aps.attributes", into: name)
        }
        decodeContentState = { parsed in
            Self.decode(Attributes.ContentState.self, parsed, member: "aps.content-state", into: name + ".ContentState")
        }
        describeAttributes = { ($0.value as? Attributes)?.journalDescription ?? name }
        describeContentState = { value in
            // Cast in a pattern: no optional of the state (a run-time metadata look-up).
            switch value.value {
            case let state as Attributes.ContentState: Attributes.journalDescription(of: state)
            default: "a state"
            }
        }
    }

    /// `parsed` decoded as ActivityKit decodes its JSON text, or the decoder's own words: which
    /// member, what it expected.
    /// Read without the text when ``ParsedValueDecoder`` is certain.
    private static func decode<Value: Codable & Sendable>(_: Value.Type, _ parsed: JSONValue, member: String,
                                                          into typeName: String) -> Result<DeclaredValue, LiveActivityStore.Unapplied> {
        do {
            return .success(DeclaredValue(value: try ParsedValueDecoder.decodeCertain(Value.self, from: parsed)))
        } catch {
            // Not certain: the decoder reads the text.
        }
        do {
            return .success(DeclaredValue(value: try JSONDecoder().decode(Value.self, from: Data(parsed.jsonBytes))))
        } catch {
            let what = member == "aps.attributes" ? "attributes do" : "content-state does"
            return .failure(.init(message: "\(what) not decode into \(typeName): \(LiveActivityPush.describe(error, in: member))"))
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

/// A contract shared by reference: looked up under the fake's lock and handed out per push
/// without copying the contract's value (issue 41).
final class SharedContract: Sendable {
    let contract: Contract

    init(_ contract: Contract) {
        self.contract = contract
    }
}
