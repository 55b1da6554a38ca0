import Contracts
import Foundation

/// What a device reads from a Live Activity push's body, as ActivityKit would: the event and
/// timestamp, and the `content-state` and `attributes` as the JSON text the device decodes
/// with a default `JSONDecoder` (dates as seconds since 2001) into the activity's declared
/// types (``DeclaredActivityType``), once it knows which type the push is for.
///
/// Read outside the fake's lock, once per push.
struct LiveActivityPush: Sendable, Hashable {
    enum Event: String, Sendable, Hashable {
        case start, update, end
    }

    var event: Event
    /// `aps.timestamp`, Unix seconds.
    var timestamp: Int64
    /// `content-state` as JSON text, numbers as written; nil: absent. Written only when
    /// ``ParsedValueDecoder`` leaves it to the decoder.
    var contentState: [UInt8]? { parsedContentState?.jsonBytes }
    var attributesType: String?
    /// `attributes` as JSON text; nil: absent.
    var attributes: [UInt8]? { parsedAttributes?.jsonBytes }
    /// Unix seconds.
    var staleDate: Int64?
    /// Unix seconds.
    var dismissalDate: Int64?
    var relevanceScore: Double?
    /// `input-push-channel` of a start push: the broadcast channel the new activity subscribes to.
    var inputPushChannel: String?
    /// `content-state` and `attributes` as parsed, which ``ParsedValueDecoder`` reads first.
    var parsedContentState: JSONValue?
    var parsedAttributes: JSONValue?

    /// The push as a device reads it, or why it cannot be read at all (no `aps`, no integer
    /// `timestamp`, no known `event`): such a push is dropped. `node` is the body as the
    /// contract read it: `content-state` and `attributes` are taken from it.
    static func read(_ bytes: [UInt8], node: JSONNode) -> Result<LiveActivityPush, Unreadable> {
        read(bytes, node: node, parsed: readParsed(node))
    }

    /// ``read(_:node:)`` given ``readParsed(_:)`` of `node`.
    static func read(_ bytes: [UInt8], node: JSONNode, parsed: ParsedReading) -> Result<LiveActivityPush, Unreadable> {
        switch parsed {
        case .read(let push):
            return .success(push)   // content-state and attributes taken in the same pass
        case .unreadable(let unreadable):
            return .failure(unreadable)
        case .decoderDecides:
            return decodedRead(bytes, aps: node.member("aps")?.value.value)
        }
    }

    /// ``read(_:node:)`` by a `JSONDecoder` pass over the bytes (`aps` as parsed).
    static func decodedRead(_ bytes: [UInt8], aps: JSONValue?) -> Result<LiveActivityPush, Unreadable> {
        do {
            guard var push = try JSONDecoder().decode(Body.self, from: Data(bytes)).aps else {
                return .failure(Unreadable(reason: "the body has no aps object"))
            }
            push.setMembers(of: aps)
            return .success(push)
        } catch let unreadable as Unreadable {
            return .failure(unreadable)
        } catch {
            return .failure(Unreadable(reason: "the body does not decode: \(describe(error))"))
        }
    }

    /// `content-state` and `attributes` from the parsed `aps`.
    private mutating func setMembers(of aps: JSONValue?) {
        parsedContentState = aps?.member("content-state")?.value.value
        parsedAttributes = aps?.member("attributes")?.value.value
    }

    /// Why a push could not be read.
    struct Unreadable: Error, Sendable, Hashable {
        var reason: String
    }

    private struct Body: Decodable {
        var aps: LiveActivityPush?
    }

    enum CodingKeys: String, CodingKey {
        case event, timestamp, attributes
        case contentState = "content-state"
        case attributesType = "attributes-type"
        case staleDate = "stale-date"
        case dismissalDate = "dismissal-date"
        case relevanceScore = "relevance-score"
        case inputPushChannel = "input-push-channel"
    }
}

extension LiveActivityPush: Decodable {
    /// `aps`, each member read on its own, so one bad member does not hide the others; only a
    /// missing `event` or `timestamp` makes the push unreadable.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let rawEvent = try? c.decodeIfPresent(String.self, forKey: .event) else {
            throw Unreadable(reason: "aps.event is missing or not a string")
        }
        guard let event = Event(rawValue: rawEvent) else {
            throw Unreadable(reason: "aps.event \"\(rawEvent)\" is not start, update or end")
        }
        guard let timestamp = try? c.decodeIfPresent(Int64.self, forKey: .timestamp) else {
            throw Unreadable(reason: "aps.timestamp is missing or not an integer of seconds")
        }
        self.event = event
        self.timestamp = timestamp
        attributesType = try? c.decodeIfPresent(String.self, forKey: .attributesType)
        staleDate = try? c.decodeIfPresent(Int64.self, forKey: .staleDate)
        dismissalDate = try? c.decodeIfPresent(Int64.self, forKey: .dismissalDate)
        relevanceScore = try? c.decodeIfPresent(Double.self, forKey: .relevanceScore)
        inputPushChannel = try? c.decodeIfPresent(String.self, forKey: .inputPushChannel)
    }

    /// A decoding error in a line, in the decoder's own words: where (under `member`), and
    /// what it expected.
    static func describe(_ error: any Error, in member: String? = nil) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (path, what): ([any CodingKey], String)
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (path, what) = (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            (path, what) = (context.codingPath + [key], "required member missing (\(context.debugDescription))")
        @unknown default:
            return "\(error)"
        }
        let pointer = ((member.map { [$0] } ?? []) + path.map { $0.intValue.map(String.init) ?? $0.stringValue }).joined(separator: ".")
        return pointer.isEmpty ? what : "\(pointer): \(what)"
    }
}
