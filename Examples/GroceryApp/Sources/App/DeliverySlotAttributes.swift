import Foundation

/// The grocery app's second Live Activity: a countdown to the end of the delivery slot the
/// customer booked, so they can still add items before the shop starts picking.
///
/// The app's own `Codable` types, with no dependency on the toolkit: the app target adds
/// ActivityKit's conformance in one line (`extension DeliverySlotAttributes: ActivityAttributes {}`,
/// iOS only), and the tests add the toolkit's (`LiveActivityAttributes`, with the schema the
/// contract checks), so the app decodes exactly what the contract and the fake check.
public struct DeliverySlotAttributes: Codable, Hashable, Sendable {
    /// What the countdown shows now: the slot's end and where the order stands.
    public struct ContentState: Codable, Hashable, Sendable {
        /// Where the booked slot is.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
            /// Items can still be added.
            case open
            /// Less than 15 minutes left to add items.
            case closingSoon
            /// The shop is picking: nothing more can be added.
            case closed
        }

        /// When the slot closes for changes (ActivityKit reads it as seconds since 2001).
        public var slotEnds: Date
        /// Where the slot is.
        public var status: Status

        /// A state from its members.
        public init(slotEnds: Date, status: Status) {
            self.slotEnds = slotEnds
            self.status = status
        }
    }

    /// The booked slot's id, e.g. `S-14`.
    public var slotId: String
    /// The slot as the customer booked it, e.g. `14:00-15:00`.
    public var window: String

    /// Attributes for the slot `slotId`.
    public init(slotId: String, window: String) {
        self.slotId = slotId
        self.window = window
    }
}
