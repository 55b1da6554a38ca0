/// Where a tap lands, parsed from the payload's `route` string like a universal link's path.
///
/// Anything this app version cannot read is `nil`, and the app opens Home:
/// `Route("orders/8F3K") == .order("8F3K")`, `Route("settings") == nil`.
public enum Route: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Home screen, also where any unreadable route lands.
    case home
    /// An order's page, by order id (`orders/<id>`).
    case order(String)
    /// An offer's page, by offer id (`offers/<id>`).
    case offer(String)

    /// Parses `home`, `orders/<id>` or `offers/<id>` (id: 1–64 of `[A-Za-z0-9_-]`); nil otherwise.
    public init?(_ string: String) {
        if string == "home" {
            self = .home
        } else if StringFormat.orderRoute.matches(string) {
            // By bytes (the ASCII prefix is matched): no grapheme breaking per route.
            self = .order(String(Substring(string.utf8.dropFirst(7))))
        } else if StringFormat.offerRoute.matches(string) {
            self = .offer(String(Substring(string.utf8.dropFirst(7))))
        } else {
            return nil
        }
    }

    /// The wire form: `home`, `orders/<id>`, `offers/<id>`.
    public var description: String {
        switch self {
        case .home: return "home"
        case .order(let id): return "orders/" + id
        case .offer(let id): return "offers/" + id
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let route = Route(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected home, orders/<id> or offers/<id>, found \"\(text)\"")
        }
        self = route
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
