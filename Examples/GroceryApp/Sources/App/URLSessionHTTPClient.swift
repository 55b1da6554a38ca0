import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPClient`` over `URLSession`, against one base URL.
///
/// ```swift
/// let http = URLSessionHTTPClient(baseURL: URL(string: "https://api.example.com")!)
/// let devices = RemoteDeviceRepository(http: http, registration: body)   // body: this phone's DeviceRegistrationBody
/// ```
public struct URLSessionHTTPClient: HTTPClient {
    /// Where request paths start: `https://api.example.com`.
    public let baseURL: URL
    private let session: URLSession

    /// A client with its own ephemeral session (no cookies, no cache).
    /// - Parameters:
    ///   - baseURL: the backend's base URL.
    ///   - timeout: how long a request may wait for its answer before it fails.
    public init(baseURL: URL, timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.init(baseURL: baseURL, session: URLSession(configuration: configuration))
    }

    /// A client over `session`.
    public init(baseURL: URL, session: URLSession) {
        self.baseURL = baseURL
        self.session = session
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: baseURL.appendingPathComponent(request.path))
        urlRequest.httpMethod = request.method
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields.append(name, value) }
        }
        return HTTPResponse(status: HTTPStatus(code: http.statusCode,
                                               reasonPhrase: HTTPURLResponse.localizedString(forStatusCode: http.statusCode)),
                            headerFields: fields, body: data)
    }
}
