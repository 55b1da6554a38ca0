import Foundation

/// The backend's answer: a status, header fields and the body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: HTTPStatus
    public var headerFields: HTTPFields
    public var body: Data

    /// An answer; tests build these for fake clients.
    public init(status: HTTPStatus, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    /// `Retry-After` in seconds, when the header is there and a number of seconds.
    public var retryAfter: Duration? {
        guard let value = headerFields["Retry-After"], let seconds = Int(value.trimmingCharacters(in: .whitespaces)),
              seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
