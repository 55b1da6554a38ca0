/// Why a request to the backend did not succeed.
public struct BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case unreachable
        case gaveUp(HTTPStatus)
        case rejected(HTTPStatus)
    }

    private let code: Code

    /// No answer on any attempt (offline, refused, lost response); the work stays pending.
    public static let unreachable = BackendError(code: .unreachable)
    /// Every attempt was answered with a status worth retrying (429, 5xx); this was the last.
    public static func gaveUp(_ status: HTTPStatus) -> BackendError { BackendError(code: .gaveUp(status)) }
    /// The backend refused the request (a 4xx): sending it again will not help.
    public static func rejected(_ status: HTTPStatus) -> BackendError { BackendError(code: .rejected(status)) }

    public var description: String {
        switch code {
        case .unreachable:
            return "the backend could not be reached; the request is kept and sent again on resume"
        case .gaveUp(let status):
            return "the backend kept answering \(status); gave up for now, the next launch tries again"
        case .rejected(let status):
            return "the backend refused the request with \(status); the request itself is wrong, check its path, body and bearer"
        }
    }
}
