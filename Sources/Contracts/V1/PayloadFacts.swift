/// What ``PayloadRules/allHold(_:options:)`` found in a payload for the rules across members
/// (``PayloadRules/holds(_:)``): read from a tree's strings or, the same, from a
/// ``FlatJSON`` document's ASCII bytes without a `String`.
struct PayloadFacts: Equatable {
    /// The top-level `route`.
    enum Route: Equatable {
        case none, order, offer, home, other

        /// The kind of `route` (``StringFormat/orderRoute``, `home`, ``StringFormat/offerRoute``).
        init(_ route: String) {
            if StringFormat.orderRoute.matches(route) {
                self = .order
            } else if route == "home" {
                self = .home
            } else {
                self = StringFormat.offerRoute.matches(route) ? .offer : .other
            }
        }

        /// The same for an ASCII route's bytes.
        init(ascii route: UnsafeBufferPointer<UInt8>) {
            if Self.isPrefixed(route, "orders/") {
                self = .order
            } else if Self.spells(route, "home") {
                self = .home
            } else {
                self = Self.isPrefixed(route, "offers/") ? .offer : .other
            }
        }

        /// True when `bytes` spell `word`.
        @inline(__always)
        static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
            word.withUTF8Buffer { SWAR.equal($0, bytes) }
        }

        @inline(__always)
        private static func isPrefixed(_ route: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { FormatMatchers.isPrefixedIdentifier(route, prefix: $0) }
        }
    }

    /// `aps.category`.
    enum Category: Equatable {
        case none, orderUpdate, offer, other

        /// The category `category` names.
        init(_ category: String) {
            switch category {
            case "ORDER_UPDATE": self = .orderUpdate
            case "OFFER": self = .offer
            default: self = .other
            }
        }

        /// The same for an ASCII category's bytes.
        init(ascii category: UnsafeBufferPointer<UInt8>) {
            if Route.spells(category, "ORDER_UPDATE") {
                self = .orderUpdate
            } else {
                self = Route.spells(category, "OFFER") ? .offer : .other
            }
        }
    }

    var route = Route.none
    var category = Category.none
    /// `thread-id` is `order-<id>` for the `orders/<id>` route (asked for ORDER_UPDATE only).
    var threadMatchesRoute = false
    var hasAccount = false
    var hasOrderVersion = false
    /// `secret` or `imageUrl` is there: the service extension must run.
    var needsMutableContent = false
    var mutableContent = false
    var hasAlert = false
    var hasBadgeOrSound = false
    var contentAvailable = false
}
