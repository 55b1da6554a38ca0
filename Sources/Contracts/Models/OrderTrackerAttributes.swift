/// The attributes of the lock-screen order tracker, a Live Activity (seed 000, Q11): what is
/// fixed for the activity's life. A start push carries them as `aps.attributes`, with
/// `aps.attributes-type` ``typeName``.
///
/// The types are the app's own: an app target adds the ActivityKit glue in one line,
/// `extension OrderTrackerAttributes: ActivityAttributes {}` (``ContentState`` is already the
/// nested `Codable & Hashable` type the protocol asks for), so the app decodes exactly what
/// the contract checks.
///
/// ```swift
/// let attributes = OrderTrackerAttributes(orderId: "8F3K")
/// let state = OrderTrackerAttributes.ContentState(stage: .onTheWay, eta: Date(timeIntervalSinceNow: 600))
/// let body = try JSONEncoder().encode(state)   // a Date as seconds since 2001, as ActivityKit reads it
/// ```
public struct OrderTrackerAttributes: Sendable, Hashable, Codable {
    /// The name ActivityKit matches against `aps.attributes-type` to start an activity.
    public static let typeName = "OrderTrackerAttributes"

    /// The order the activity follows: the id of its route `orders/<id>`, e.g. `8F3K`.
    public var orderId: String

    /// Attributes for the order `orderId`.
    public init(orderId: String) {
        self.orderId = orderId
    }
}
