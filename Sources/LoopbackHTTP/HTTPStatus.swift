/// An HTTP status: a code and its reason phrase. Equality and hashing use the code only.
package struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    package var code: Int
    package var reasonPhrase: String

    package init(code: Int, reasonPhrase: String = "") {
        self.code = code
        self.reasonPhrase = reasonPhrase.isEmpty ? HTTPStatus.defaultReason(code) : reasonPhrase
    }

    package static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    package var description: String { "\(code) \(reasonPhrase)" }

    // MARK: 1xx
    package static let `continue` = HTTPStatus(code: 100, reasonPhrase: "Continue")
    // MARK: 2xx
    package static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    package static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")
    // MARK: 4xx
    package static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    package static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    package static let forbidden = HTTPStatus(code: 403, reasonPhrase: "Forbidden")
    package static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    package static let methodNotAllowed = HTTPStatus(code: 405, reasonPhrase: "Method Not Allowed")
    package static let requestTimeout = HTTPStatus(code: 408, reasonPhrase: "Request Timeout")
    package static let gone = HTTPStatus(code: 410, reasonPhrase: "Gone")
    package static let contentTooLarge = HTTPStatus(code: 413, reasonPhrase: "Content Too Large")
    package static let uriTooLong = HTTPStatus(code: 414, reasonPhrase: "URI Too Long")
    package static let unsupportedMediaType = HTTPStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    package static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")
    package static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reasonPhrase: "Request Header Fields Too Large")
    // MARK: 5xx
    package static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    package static let notImplemented = HTTPStatus(code: 501, reasonPhrase: "Not Implemented")
    package static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")

    static func defaultReason(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 406: return "Not Acceptable"
        case 412: return "Precondition Failed"
        case 416: return "Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 421: return "Misdirected Request"
        case 426: return "Upgrade Required"
        case 428: return "Precondition Required"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(code)"
        }
    }
}
