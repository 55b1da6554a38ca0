/// An order's id, as it appears in `orders/<id>` routes.
public typealias OrderID = String
/// An offer's id, as it appears in `offers/<id>` routes.
public typealias OfferID = String

/// Where in the app a tap lands (seed 000, section 6).
///
/// Payloads carry the route as a string the app parses like a universal link's path;
/// ``init(path:)`` returns nil for anything this version cannot read, and the open use case
/// then opens ``home``.
public indirect enum Route: Hashable, Sendable, CustomStringConvertible {
    case home
    case order(OrderID)
    case offer(OfferID)
    /// The sign-in screen, then `then` once the user is signed in.
    case signIn(then: Route)

    /// Parses `home`, `orders/<id>` or `offers/<id>`, where id is 1–64 of `[A-Za-z0-9_-]`;
    /// nil for anything else, including routes a newer app version would read.
    ///
    /// ```swift
    /// Route(path: "orders/8F3K") == .order("8F3K")
    /// Route(path: "wallet/vouchers/33") == nil   // the tap opens .home
    /// ```
    public init?(path: String) {
        if path == "home" {
            self = .home
        } else if let id = Self.id(in: path, after: "orders/") {
            self = .order(id)
        } else if let id = Self.id(in: path, after: "offers/") {
            self = .offer(id)
        } else {
            return nil
        }
    }

    /// The wire form; `signIn` has none and reads `sign-in?then=<route>` for logs.
    public var description: String {
        switch self {
        case .home: return "home"
        case .order(let id): return "orders/" + id
        case .offer(let id): return "offers/" + id
        case .signIn(let then): return "sign-in?then=\(then)"
        }
    }

    private static func id(in path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let id = path.dropFirst(prefix.count)
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(isIdentifierByte) else { return nil }
        return String(id)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
