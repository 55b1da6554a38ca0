import Foundation

/// Card 8: keeps the backend's record of this phone's token right.
///
/// `PUT /v1/devices/{token}` when the token or the account change, `DELETE
/// /v1/devices/{token}` at sign-out with the signed-out account's bearer. A DELETE the
/// backend never answered stays pending, with that bearer, and goes out on ``resume()`` or
/// before the next registration. A 429 is retried after its `Retry-After`, never before.
///
/// ```swift
/// let devices = RemoteDeviceRepository(http: http, registration: body)
/// try await devices.register(token: DeviceToken(deviceToken), for: session.current)
/// ```
public actor RemoteDeviceRepository: DeviceRegistration {
    private let http: any HTTPClient
    private let body: DeviceRegistrationBody
    private let retry: RetryPolicy

    private struct Registration: Equatable {
        var token: DeviceToken
        var credentials: Credentials
    }

    /// The registration the backend last confirmed.
    private var registered: Registration?
    /// A removal the backend has not confirmed: the token and the signed-out account's
    /// credentials.
    private var pendingRemoval: Registration?

    /// A repository that sends `registration` as the PUT body.
    /// - Parameters:
    ///   - http: the backend.
    ///   - registration: this install's environment, version and public key.
    ///   - retry: attempts, backoff and how waits are waited.
    public init(http: any HTTPClient, registration: DeviceRegistrationBody, retry: RetryPolicy = RetryPolicy()) {
        self.http = http
        body = registration
        self.retry = retry
    }

    /// True while a sign-out's DELETE waits for the backend.
    public var hasPendingRemoval: Bool { pendingRemoval != nil }

    public func register(token: DeviceToken, for credentials: Credentials?) async throws {
        // The old account's DELETE first, so it never lands after this PUT.
        try? await sendPendingRemoval()
        guard let credentials else { return }
        let wanted = Registration(token: token, credentials: credentials)
        if registered == wanted { return }

        var request = HTTPRequest(method: "PUT", path: "v1/devices/\(token.hex)",
                                  headerFields: ["Authorization": credentials.authorization,
                                                 "Content-Type": "application/json"])
        request.body = try? JSONEncoder().encode(body)
        let response = try await http.send(request, retrying: retry)
        guard response.status.isSuccess else { throw BackendError.rejected(response.status) }
        registered = wanted
    }

    public func unregister() async throws {
        guard let registration = registered else { return }
        registered = nil
        pendingRemoval = registration
        try await sendPendingRemoval()
    }

    public func resume() async {
        try? await sendPendingRemoval()
    }

    /// Sends the pending DELETE; it stays pending when the backend cannot be reached.
    private func sendPendingRemoval() async throws {
        guard let removal = pendingRemoval else { return }
        let request = HTTPRequest(method: "DELETE", path: "v1/devices/\(removal.token.hex)",
                                  headerFields: ["Authorization": removal.credentials.authorization])
        let response = try await http.send(request, retrying: retry)
        // Repeated calls may overlap (actor reentrancy): clear only the removal just sent.
        if pendingRemoval == removal { pendingRemoval = nil }
        // 204: gone. 404: another account holds the token now, nothing of ours is left.
        // Any other 4xx (the old session expired) cannot get better by retrying; APNs' 410
        // cleans the token up on the server's side.
        if !response.status.isSuccess && response.status != .notFound {
            throw BackendError.rejected(response.status)
        }
    }
}
