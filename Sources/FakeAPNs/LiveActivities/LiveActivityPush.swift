import Contracts
import Foundation

/// What a device reads from a Live Activity push's body, as ActivityKit would: the event and
/// timestamp, and the `content-state` and `attributes` decoded with a default `JSONDecoder`
/// (dates as seconds since 2001) into the tracker's types.
///
/// Read outside the fake's lock, once per push. A member that does not decode is kept as
/// the reason it did not, so the device can drop the push with that reason in the journal.
struct LiveActivityPush: Sendable, Hashable {
    enum Event: String, Sendable, Hashable {
        case start, update, end
    }

    /// A member that decodes, or why it did not.
    enum Decoded<Value: Sendable & Hashable>: Sendable, Hashable {
        case value(Value)
        case undecodable(String)
    }

    var event: Event
    /// `aps.timestamp`, Unix seconds.
    var timestamp: Int64
    /// nil: absent.
    var contentState: Decoded<OrderTrackerAttributes.ContentState>?
    var attributesType: String?
    var attributes: Decoded<OrderTrackerAttributes>?
    /// Unix seconds.
    var staleDate: Int64?
    /// Unix seconds.
    var dismissalDate: Int64?
    var relevanceScore: Double?
    /// `input-push-channel` of a start push: the broadcast channel the new activity subscribes to.
    var inputPushChannel: String?

    /// The push as a device reads it, or why it cannot be read at all (no `aps`, no integer
    /// `timestamp`, no known `event`): such a push is dropped.
    static func read(_ bytes: [UInt8]) -> Result<LiveActivityPush, Unreadable> {
        do {
            guard let push = try JSONDecoder().decode(Body.self, from: Data(bytes)).aps else {
                return .failure(Unreadable(reason: "the body has no aps object"))
            }
            return .success(push)
        } catch let unreadable as Unreadable {
            return .failure(unreadable)
        } catch {
            return .failure(Unreadable(reason: "the body does not decode: \(describe(error))"))
        }
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
        contentState = Self.decoded(OrderTrackerAttributes.ContentState.self, c, .contentState)
        attributes = Self.decoded(OrderTrackerAttributes.self, c, .attributes)
    }

    private static func decoded<T: Decodable & Sendable & Hashable>(_ type: T.Type, _ c: KeyedDecodingContainer<CodingKeys>,
                                                                    _ key: CodingKeys) -> Decoded<T>? {
        guard c.contains(key) else { return nil }
        do {
            return .value(try c.decode(T.self, forKey: key))
        } catch {
            return .undecodable(describe(error))
        }
    }

    /// A decoding error in a line: where, and what.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        let (path, what): ([any CodingKey], String)
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (path, what) = (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            (path, what) = (context.codingPath + [key], "required member missing")
        @unknown default:
            return "\(error)"
        }
        let pointer = path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return pointer.isEmpty ? what : "\(pointer): \(what)"
    }
}
