import Foundation

/// A request to the app's backend: a method, a path under the backend's base URL, header
/// fields and an optional body.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `PUT`, `POST`, `DELETE`.
    public var method: String
    /// The path under the base URL, without a leading slash: `v1/devices/0a1b…`.
    public var path: String
    public var headerFields: HTTPFields
    public var body: Data?

    /// A request; `path` is relative to the client's base URL.
    public init(method: String, path: String, headerFields: HTTPFields = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headerFields = headerFields
        self.body = body
    }
}
