/// The one door to the backend that cards 7 and 8 share (seed 000: "the HTTPClient cards 7
/// and 8 share"). A transport failure (refused, reset, lost response, timeout) throws; any
/// status, error ones included, is an answer.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the backend's answer.
    /// - Throws: when no answer arrived.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
