#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Live Activity type of the app, declared once: its `aps.attributes-type` name, its
/// attributes and content state as the app's own `Codable` types, and their schema for the
/// contract. Shaped like ActivityKit's `ActivityAttributes`, so the app's type conforms to both
/// (the associated ``ContentState`` is the one both protocols ask for; no other name clashes):
///
/// ```swift
/// struct DeliverySlotAttributes: LiveActivityAttributes {
///     struct ContentState: Codable, Hashable, Sendable {
///         var slotEnds: Date
///         var status: String
///     }
///     var slotId: String
///
///     static let attributesSchema: Schema = .object([.required("slotId", .string(minLength: 1))])
///     static let contentStateSchema: Schema = .object([
///         .required("slotEnds", .liveActivityDate),
///         .required("status", .string(oneOf: ["open", "closing", "closed"])),
///     ])
/// }
/// // In the app target: extension DeliverySlotAttributes: ActivityAttributes {}
/// ```
///
/// ``Contract/liveActivityPayload(for:name:summary:folderName:)`` makes its payload contract;
/// FakeAPNs' devices decode `attributes` and `content-state` into these types with a default
/// `JSONDecoder`, as ActivityKit does. ``OrderTrackerAttributes`` is one such declaration.
public protocol LiveActivityAttributes: Codable, Hashable, Sendable {
    /// What the activity shows now: `aps.content-state` decodes into it.
    associatedtype ContentState: Codable, Hashable, Sendable

    /// The name a start push's `aps.attributes-type` carries: by default the type's own name,
    /// as ActivityKit matches it.
    static var attributesType: String { get }
    /// The schema of `aps.attributes` (this type encoded).
    static var attributesSchema: Schema { get }
    /// The schema of `aps.content-state` (``ContentState`` encoded). Mark `Date` members with
    /// ``Schema/liveActivityDate``: the contract then catches Unix time in them.
    static var contentStateSchema: Schema { get }

    /// A few words naming the activity in a journal line ("started activity … for …"); by
    /// default the type's name.
    var journalDescription: String { get }
    /// A few words for what `state` shows, in a journal line ("applied: …"); by default the
    /// state as `JSONEncoder` writes it.
    static func journalDescription(of state: ContentState) -> String
}

extension LiveActivityAttributes {
    /// The type's own name, as ActivityKit spells `attributes-type`.
    public static var attributesType: String { String(describing: Self.self) }

    /// The ``attributesType``.
    public var journalDescription: String { Self.attributesType }

    /// `state` as `JSONEncoder` writes it, keys sorted.
    public static func journalDescription(of state: ContentState) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "a state"
    }
}

extension Schema {
    /// A `Date` member of a Live Activity's content state as ActivityKit's `JSONDecoder` reads
    /// it by default: seconds since 2001-01-01. The payload contract's rule
    /// `live-activity-payload.date-since-2001` checks every top-level member declared with it.
    public static var liveActivityDate: Schema { LiveActivitySchema.date }
}
