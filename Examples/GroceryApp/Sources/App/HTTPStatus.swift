/// An HTTP response status: a code and its reason phrase; two statuses are equal when their
/// codes are.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The three-digit code.
    public var code: Int
    /// The reason phrase, for logs only.
    public var reasonPhrase: String

    /// A status from its code; the reason phrase is the usual one when known.
    public init(code: Int, reasonPhrase: String = "") {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `204 No Content`.
    public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

    /// 200–299.
    public var isSuccess: Bool { (200...299).contains(code) }
    /// 500 and up.
    public var isServerError: Bool { code >= 500 }

    // MARK: 2xx
    public static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    public static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")

    // MARK: 4xx
    public static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    public static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    public static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")

    // MARK: 5xx
    public static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    public static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")
}
