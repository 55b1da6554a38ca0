#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension OrderTrackerAttributes {
    /// What the tracker shows now: a start or update push carries it as `aps.content-state`,
    /// and the activity replaces its state with it.
    ///
    /// `eta` is a `Date`, which `Codable` writes with the encoder's date strategy. ActivityKit
    /// decodes with `JSONDecoder`'s default, seconds since 2001-01-01, so a sender encodes with
    /// `JSONEncoder`'s default too; Unix time there shows 31 years late (the contract's rule
    /// `live-activity-payload.date-since-2001` catches it).
    public struct ContentState: Sendable, Hashable, Codable {
        /// Where the order is, in the order it gets there.
        public enum Stage: String, Sendable, Hashable, Codable, CaseIterable {
            /// The shop accepted the order.
            case confirmed
            /// A picker is collecting the items.
            case picking
            /// The rider has left the shop.
            case onTheWay
            /// The rider is close.
            case arriving
            /// The order was handed over.
            case delivered
        }

        /// Where the order is.
        public var stage: Stage
        /// When the order should arrive, if known.
        public var eta: Date?
        /// How many items are picked so far (≥ 0).
        public var itemsPicked: Int?
        /// How many items the order has (≥ 1).
        public var itemsTotal: Int?

        /// A state from its members; absent members are left out of the encoding.
        public init(stage: Stage, eta: Date? = nil, itemsPicked: Int? = nil, itemsTotal: Int? = nil) {
            self.stage = stage
            self.eta = eta
            self.itemsPicked = itemsPicked
            self.itemsTotal = itemsTotal
        }
    }
}
