import App
import Contracts

/// The delivery-slot countdown declared to the toolkit once, with its public API only (`Schema`
/// qualified: the app has a `Schema` of its own, as `NameProbe` shows): its
/// `attributes-type` is the type's name, and the contract checks its attributes and state
/// with this schema (the `Date` marked, so Unix time in it is caught).
extension DeliverySlotAttributes: LiveActivityAttributes {
    public static let attributesSchema: Contracts.Schema = .object([
        .required("slotId", .string(minLength: 1, maxLength: 32, format: .identifier)),
        .required("window", .string(minLength: 1, maxLength: 32)),
    ], unknownMembers: .allow)

    public static let contentStateSchema: Contracts.Schema = .object([
        .required("slotEnds", .liveActivityDate),
        .required("status", .string(oneOf: ContentState.Status.allCases.map(\.rawValue))),
    ], unknownMembers: .allow)

    /// `slot S-14`, in the fake's journal.
    public var journalDescription: String { "slot \(slotId)" }
}
